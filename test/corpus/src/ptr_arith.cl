// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Pointer arithmetic: strided walks, pointer differences, pointer comparisons,
// pointers into the middle of a buffer and reinterpreting casts to narrower types.

static int sum_range(__global const int *begin, __global const int *end)
{
    uint acc = 0;
    for (__global const int *p = begin; p != end; ++p)
        acc += (uint)*p;
    return (int)acc;
}

__kernel void ptr_arith(__global const int *data, __global int *out, int stride)
{
    int i = get_global_id(0);
    __global const int *row = data + i * stride;
    __global const int *last = row + stride - 1;
    int s = sum_range(row, row + stride);
    int diff = (int)(last - row);
    __global const short *halves = (__global const short *)row;
    int lo = halves[0];
    int hi = *(halves + 1);
    __global const int *mid = row + (stride >> 1);
    out[4 * i + 0] = s;
    out[4 * i + 1] = diff;
    out[4 * i + 2] = lo ^ (int)((uint)hi << 4);
    out[4 * i + 3] = (mid > row) ? (int)((uint)*mid - (uint)*last) : -1;
}
