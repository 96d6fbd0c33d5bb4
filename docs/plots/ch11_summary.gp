# Figure 11.1, then and now: the effective GB/s of each strategy of chapter 11 on 128M floats.
# Today's bars come from docs/results/ch11_summary.csv (run by scripts/make_docs_pages.py with
# `results`, `out`); the book's bars from the wall clocks its programs print in sections 11.1
# to 11.4 on a GeForce GTX 680 in an Intel i7 system (PCI Express 2.0), converted the same way:
# 12 bytes per element, 128M elements, 1610.612736 MB over the milliseconds.
set datafile separator comma
set datafile columnheaders
set terminal svg size 900,440 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set key outside top center horizontal noenhanced
set logscale x 10
set xrange [1:300]
set xtics (1, 2, 5, 10, 20, 50, 100, 200)
set xlabel "effective GB/s, logarithmic scale (12 bytes per element: x and y up, out back)"
set ytics noenhanced nomirror
set yrange [6.6:-0.6]
set grid xtics
set lmargin 38
file = results.'/ch11_summary.csv'
# Each row's label: its id and its strategy up to the first comma (the table above the figure
# gives the details, such as the stream count and the chunk size).
short(s) = strstrt(s, ",") > 0 ? s[1:strstrt(s, ",") - 1] : s
label(id, s) = id.'  '.short(s)
# The book's four programs are data rows 2 to 5 of the CSV (strategies 1 to 4).
$book << EOD
row,ms
2,570.22
3,288.68
4,273.46
5,204.54
EOD
mb = 1610.612736
plot file using 4:($0 - 0.18):(1):4:($0 - 0.36):($0 + 0.0):ytic(label(strcol(1), strcol(2))) \
       with boxxyerror lc rgb "#4a7ebb" title "NVIDIA H100 (ours, ch11_summary.csv)", \
     file using ($4 * 1.05):($0 - 0.18):(sprintf("%.1f", $4)) with labels left notitle, \
     $book using (mb / $2):($1 + 0.18):(1):(mb / $2):($1 + 0.0):($1 + 0.36) \
       with boxxyerror lc rgb "#d08a3c" title "GeForce GTX 680, PCI Express 2.0 (the book)", \
     $book using (mb / $2 * 1.05):($1 + 0.18):(sprintf("%.2f", mb / $2)) with labels left notitle
