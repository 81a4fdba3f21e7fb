# SPDX-License-Identifier: GPL-2.0
# The plot of bench/taillat, from the data analyze.py writes:
#   gnuplot -e "dir='PLOTDIR'; png='OUT.png'" bench/taillat/plot.gp
# Top: the small flow's p50/p99/p99.9 in each repetition of each scenario
# (the fixed-rate reference if the run had it).
# Below: for the typical (median-p99) repetition of off and on, if run,
# what each QP moved through the bottleneck per 0.5 s (the capture) and
# what the bottleneck sent in all (its counter), the small flow's every
# exchange (perftest -U) and the bottleneck's backlog as queueing delay
# (backlog / rate), on the same clock.

load dir.'/meta.gp'
set terminal pngcairo size 1280,1280 font ",10"
set output png
set multiplot layout npanels,1 title sprintf("rocetune lab: a 1-QP small-message flow and %d bulk QPs through one %g Mbit/s ECN bottleneck", nbulk, bn)

set grid
set title sprintf("small flow latency (perftest's one-way figure), %d repetitions of each scenario", reps)
set logscale y
set ylabel "ms"
set xrange [0.5:nkinds + 0.5]
eval 'set xtics '.xtics
set key top left
plot dir.'/pct.dat' using 1:4 with points pt 7 ps 1.3 lc rgb "#1b9e77" title "p50", \
     '' using 1:5 with points pt 5 ps 1.3 lc rgb "#d95f02" title "p99", \
     '' using 1:6 with points pt 9 ps 1.5 lc rgb "#7570b3" title "p99.9"

unset logscale y
set xtics autofreq
set xrange [*:*]
set xlabel "s since the first packet through the bottleneck"
set ylabel "Mb/s leaving the bottleneck (per QP: capture)"
set yrange [0:bn * 1.3]
set ytics nomirror
set logscale y2
set y2tics
set y2label "small flow latency; queue / rate; ms (log)"
set key top right horizontal

# A run without off or on (TAILLAT_KINDS) has no panel for it.
if (exists("rep_off")) {
set title sprintf("without DCQCN: repetition %d (its p99 %.1f ms is the median one)", rep_off, p99_off)
plot for [c=3:ncol_off] dir.'/rates-off.dat' using 1:c with steps lw 1.5 title columnheader(c), \
     dir.'/rates-off.dat' using 1:2 with steps lw 2.5 lc rgb "black" title columnheader(2), \
     dir.'/total-off.dat' using 1:2 with steps lw 1 dt 2 lc rgb "black" title "all (counter)", \
     dir.'/lat-off.dat' using 1:2 axes x1y2 with points pt 7 ps 0.25 lc rgb "red" title "small flow latency", \
     dir.'/queue-off.dat' using 1:($2 > 0 ? $2 : NaN) axes x1y2 with lines lc rgb "#888888" title "queue delay"
}

if (exists("rep_on")) {
set title sprintf("with DCQCN: repetition %d (its p99 %.1f ms is the median one)", rep_on, p99_on)
plot for [c=3:ncol_on] dir.'/rates-on.dat' using 1:c with steps lw 1.5 title columnheader(c), \
     dir.'/rates-on.dat' using 1:2 with steps lw 2.5 lc rgb "black" title columnheader(2), \
     dir.'/total-on.dat' using 1:2 with steps lw 1 dt 2 lc rgb "black" title "all (counter)", \
     dir.'/lat-on.dat' using 1:2 axes x1y2 with points pt 7 ps 0.25 lc rgb "red" title "small flow latency", \
     dir.'/queue-on.dat' using 1:($2 > 0 ? $2 : NaN) axes x1y2 with lines lc rgb "#888888" title "queue delay"
}
unset multiplot
