// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer's own load and unload steps. The module's init and
 * exit are the tracer's (tracer/module.c): it is the client that decides
 * what the module makes at load. The ring buffer only has state that
 * outlives every buffer, the latch clock's page (rb_clock.c), and starts
 * and stops it here, before the first buffer and after the last.
 */
#include <linux/init.h>
#include <linux/timex.h>
#include <rbtrace/rbtrace.h>
#include "rb_clock.h"

/**
 * rbt_init - the ring buffer's load step
 *
 * Called once by the module's init before any other rbt_ function:
 * starts the latch clock (rb_clock_init()). Not exported: modules that
 * use rbtrace's API load after rbtrace.ko, whose init has run it.
 *
 * Return: 0, or -ENOMEM.
 */
int __init rbt_init(void)
{
	return rb_clock_init();
}

/**
 * rbt_exit - the ring buffer's unload step
 *
 * Called once by the module's exit, or by its init when a later step
 * fails, after the last buffer is freed: stops the latch clock's updates
 * and frees its page (rb_clock_exit()).
 */
void rbt_exit(void)
{
	rb_clock_exit();
}
