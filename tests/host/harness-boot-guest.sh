#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness-boot-guest.sh MODE [ARG...]: a guest script that misbehaves on purpose,
# for harness-boot.sh. MODE: exit N, hang, panic, warn, args.
case $1 in
exit) exit "$2" ;;
hang) echo "harness-boot-guest: hanging"; sleep 100000 ;;
panic) echo c >/proc/sysrq-trigger ;;
# A kernel-log line that the scan must catch, as a real WARN would look.
warn) echo "WARNING: CPU: 0 PID: 1 at harness-boot-guest.sh:13 (made up by the harness test)" >/dev/kmsg ;;
# The arguments must arrive unchanged, spaces and quotes included.
args) shift; [ $# = 3 ] && [ "$1" = "a b" ] && [ "$2" = "it's" ] && [ "$3" = '$HOME*' ] ;;
*) echo "harness-boot-guest: unknown mode $1"; exit 2 ;;
esac
