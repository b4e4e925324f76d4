/* replay.c: runs every file of a corpus directory through a fuzz harness, so every build (and
 * CI, with and without sanitizers) keeps what fuzzing found. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int files = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        struct dirent *e;
        if (!d) {
            fprintf(stderr, "replay: cannot open %s\n", argv[a]);
            return 1;
        }
        while ((e = readdir(d))) {
            char path[4096];
            FILE *f;
            unsigned char *buf;
            long n;
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            f = fopen(path, "rb");
            if (!f) continue;
            fseek(f, 0, SEEK_END);
            n = ftell(f);
            rewind(f);
            buf = malloc(n > 0 ? (size_t)n : 1);
            if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
                LLVMFuzzerTestOneInput(buf, (size_t)n);
            free(buf);
            fclose(f);
            files++;
        }
        closedir(d);
    }
    fprintf(stderr, "replay: %d inputs, no crash\n", files);
    return files ? 0 : 1;
}
