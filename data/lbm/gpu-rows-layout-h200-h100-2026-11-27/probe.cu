// microbenchmark (not committed): pull's access pattern (19 shifted loads, 19 stores a cell,
// periodic wrap, a trivial update) over two layouts: SoA (19 arrays an odd number of pages apart)
// and rows (a row's 19 direction rows side by side: idx = ((z ny + y) 19 + d) nx + x)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__constant__ int CX[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int CY[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int CZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
template <int ROWS>
__global__ void k(const float *__restrict__ s, float *__restrict__ d, int nx, int ny, int nz,
                  long ds)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= nx) return;
    float f[19];
#pragma unroll
    for (int i = 0; i < 19; i++) {
        int xo = x - CX[i], yo = y - CY[i], zo = z - CZ[i];
        xo += xo < 0 ? nx : (xo >= nx ? -nx : 0);
        yo += yo < 0 ? ny : (yo >= ny ? -ny : 0);
        zo += zo < 0 ? nz : (zo >= nz ? -nz : 0);
        long at = ROWS ? (((long)zo * ny + yo) * 19 + i) * nx + xo
                       : i * ds + ((long)zo * ny + yo) * nx + xo;
        f[i] = __ldg(s + at);
    }
    float m = 0;
#pragma unroll
    for (int i = 0; i < 19; i++)
        m += f[i];
    m *= 1.0f / 19;
#pragma unroll
    for (int i = 0; i < 19; i++) {
        long at =
            ROWS ? (((long)z * ny + y) * 19 + i) * nx + x : i * ds + ((long)z * ny + y) * nx + x;
        d[at] = f[i] + 0.1f * (m - f[i]);
    }
}
__global__ void copy(const float4 *__restrict__ a, float4 *__restrict__ b, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
         i += (long)gridDim.x * blockDim.x)
        b[i] = a[i];
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256, nx = n, ny = n, nz = n;
    long cells = (long)nx * ny * nz, bytes = cells * 4;
    long ds = (((bytes + 4095) / 4096 | 1) * 4096 + 3 * 128) / 4;
    long elems = 19 * ds;
    float *a, *b;
    cudaMalloc(&a, elems * 4);
    cudaMalloc(&b, elems * 4);
    cudaMemset(a, 0, elems * 4);
    cudaMemset(b, 0, elems * 4);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    dim3 g((nx + 127) / 128, ny, nz), bl(128);
    for (int rep = 0; rep < 3; rep++) {
        for (int v = 0; v < 3; v++) {
            float best = 1e30f;
            for (int t = 0; t < 5; t++) {
                const int it = 20;
                cudaEventRecord(e0);
                for (int s = 0; s < it; s++) {
                    if (v == 0)
                        k<0><<<g, bl>>>(s % 2 ? b : a, s % 2 ? a : b, nx, ny, nz, ds);
                    else if (v == 1)
                        k<1><<<g, bl>>>(s % 2 ? b : a, s % 2 ? a : b, nx, ny, nz, ds);
                    else
                        copy<<<132 * 16, 256>>>((const float4 *)(s % 2 ? b : a),
                                                (float4 *)(s % 2 ? a : b), 19 * cells / 4);
                }
                cudaEventRecord(e1);
                cudaEventSynchronize(e1);
                float ms;
                cudaEventElapsedTime(&ms, e0, e1);
                ms /= it;
                if (ms < best) best = ms;
            }
            double gbs = 19.0 * 2 * bytes / (best * 1e-3) / 1e9;
            printf("n=%d rep %d %s: %.3f ms, %.1f GB/s, %.0f MFLUP/s\n", n, rep,
                   v == 0   ? "soa "
                   : v == 1 ? "rows"
                            : "copy",
                   best, gbs, cells / (best * 1e-3) / 1e6);
        }
    }
    cudaError_t e = cudaGetLastError();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
}
