/* device.c: the part of every row that says what was measured where and with what. */
#include "device.h"

#include <math.h>

#include "csv.h"
#include "sysinfo.h"

void device_row_init(struct csv_record *r, const struct device_facts *d, const char *host,
                     const char *bench, double peak_bw_GBs)
{
    char ts[32];
    csv_record_init(r);
    csv_set(r->version, sysinfo_version());
    sysinfo_timestamp(ts, sizeof ts);
    csv_set(r->timestamp, ts);
    csv_set(r->host, host);
    csv_set(r->bench, bench);
    csv_set(r->backend, d->backend);
    csv_set(r->device, d->device);
    r->peak_bw_GBs = isnan(peak_bw_GBs) ? d->peak_bw_GBs : peak_bw_GBs;
    r->llc_bytes = (int64_t)d->cache_bytes;
    csv_set(r->ecc, d->ecc);
    csv_set(r->driver, d->driver);
    csv_set(r->compiler, d->compiler);
    csv_set(r->flags, d->flags);
    csv_set(r->binding, d->binding);
    csv_set(r->facts_source, d->facts_source);
    r->cores = d->cores > 0 ? d->cores : -1;
    r->numa_domains = d->numa_domains > 0 ? d->numa_domains : -1;
}
