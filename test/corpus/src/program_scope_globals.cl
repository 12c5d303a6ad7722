// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// OpenCL 2.0 program-scope __global variables (scalar, array, struct) and a
// function-scope static __global variable: a setup kernel writes them and a second
// kernel reads them (run the kernels in order, single work-group for setup).

typedef struct { int scale; int bias; } Affine;

__global int g_count;
__global int g_table[8] = { 1, 2, 3, 5, 8, 13, 21, 34 };
__global Affine g_aff = { 3, -1 };

__kernel void globals_setup(int scale, int bias)
{
    if (get_global_id(0) == 0) {
        g_aff.scale = scale;
        g_aff.bias = bias;
        g_count = 0;
    }
    if (get_global_id(0) < 8)
        g_table[get_global_id(0)] *= 2;
}

__kernel void globals_use(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * g_aff.scale + g_aff.bias + g_table[i & 7];
    atomic_inc(&g_count);
}

__kernel void globals_read_count(__global int *out)
{
    static __global int calls = 0;
    if (get_global_id(0) == 0) {
        calls += 1;
        out[0] = g_count;
        out[1] = calls;
    }
}
