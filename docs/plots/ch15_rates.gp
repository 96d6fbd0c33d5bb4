# Chapter 15, figure 15.5 today: each variant's rate on the 1024 x 1024 image for the 52 x 52
# and 16 x 16 templates, from docs/results/ch15_rates_52.csv and ch15_rates_16.csv. The
# variant titles hold commas, so we count columns from the end of the line: Mpix/s is the
# ninth from the end ($(NF-8)), the path the eleventh ($(NF-10)).
set terminal svg size 950,610 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "Mpix/s (output pixels per second, 1e6, log scale)"
set logscale x
set xrange [1:*]
set ytics noenhanced nomirror
set yrange [-0.6:10.6] reverse
set grid xtics
set key bottom right
f52 = results.'/ch15_rates_52.csv'
f16 = results.'/ch15_rates_16.csv'
rows(f) = sprintf("< awk -F, '$1 ~ /^[0-9]+$/ {print $1, $(NF-8), $(NF-10)}' '%s'", f)
plot rows(f52) using (sqrt($2)):1:(1):2:($1-0.38):($1-0.02):ytic(sprintf("%d %s", $1, strcol(3))) \
       with boxxyerror lc rgb "#4a7ebb" title "52 x 52", \
     rows(f16) using (sqrt($2)):1:(1):2:($1+0.02):($1+0.38) with boxxyerror lc rgb "#e08a2c" title "16 x 16", \
     rows(f52) using 2:($1-0.2):(sprintf(" %.0f", $2)) with labels left notitle, \
     rows(f16) using 2:($1+0.2):(sprintf(" %.0f", $2)) with labels left notitle
