# SPDX-License-Identifier: GPL-2.0
# gnuplot -e "datafile='...'; outfile='...'" write-cost.gp
set terminal png size 800,480
set output outfile
set title "Write cost per event, one writer (QEMU -icount: 1 ns = 1 instruction)"
set ylabel "ns per event"
set xlabel "payload bytes"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key left top
set yrange [0:*]
plot datafile using 2:xtic(1) title "rbtrace", '' using 3 title "ftrace ring buffer", '' using 4 title "limit (per-CPU array)"
