set terminal svg size 1000,650 dynamic background rgb 'white' noenhanced
set output 'data/lbm/padding-h100-2026-11-22/plots/size.svg'
set xlabel 'nx (domain edge)'
set ylabel 'MFLUP/s'
set logscale y
set key outside right
set title 'MFLUP/s against size (dashed: the ceiling of each series)'
unset logscale
set yrange [0:2]
set label 'no series with two or more points' at graph 0.3,0.5
plot [0:1] 1 notitle
