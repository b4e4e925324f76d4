# csv_column.awk -v want=NAME FILE: the values of one column of a CSV file with a header line, one
# row per line. RFC 4180 quoted fields may hold commas and doubled quotes.
function split_csv(line, out,    n, i, c, f, q) {
    n = 0; f = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") { f = f c; i++ }
            else if (c == "\"") q = 0
            else f = f c
        } else if (c == "\"") q = 1
        else if (c == ",") { out[++n] = f; f = "" }
        else f = f c
    }
    out[++n] = f
    return n
}
NR == 1 {
    n = split_csv($0, h)
    for (i = 1; i <= n; i++) if (h[i] == want) col = i
    if (!col) { print "no column " want > "/dev/stderr"; exit 1 }
    next
}
{ split_csv($0, r); print r[col] }
