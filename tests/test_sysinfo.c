/* test_sysinfo.c: the GPU row's driver column from /proc/driver/nvidia/version's first line
 * (common/sysinfo.h): the proprietary and the open kernel module's wording, lines without a
 * version, and a buffer too small for it. Every GPU row before this test read "for" from the open
 * module's "Kernel Module for x86_64". */
#include <string.h>

#include "check.h"
#include "sysinfo.h"

static int driver_is(const char *line, const char *want)
{
    char buf[64];
    memset(buf, 'x', sizeof buf);
    sysinfo_nvidia_driver(line, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "driver of \"%s\": \"%s\", not \"%s\"\n", line, buf, want);
    return strcmp(buf, want) == 0;
}

int main(void)
{
    char small[4];
    CHECK(driver_is("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release "
                    "Build  (dvs-builder@U16-I3-B03-4-3)  Thu Oct 30 00:12:44 UTC 2025\n",
                    "580.159.04"));
    CHECK(driver_is("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
                    "01:15:15 UTC 2023\n",
                    "535.104.05"));
    CHECK(driver_is("NVRM version: NVIDIA UNIX aarch64 Kernel Module\t550.54.15\tTue Mar  5\n",
                    "550.54.15"));
    CHECK(driver_is("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64\n", ""));
    CHECK(driver_is("GCC version:  gcc version 13.3.0\n", ""));
    CHECK(driver_is("", ""));
    sysinfo_nvidia_driver("x86_64 Kernel Module  580.159.04  Release\n", small, sizeof small);
    CHECK(strcmp(small, "580") == 0); /* cut to the buffer, terminated */
    return check_report("sysinfo");
}
