// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// A struct passed by value as a kernel argument (affine parameters and clamp range),
// plus a struct returned by value from a helper function.

typedef struct {
    int scale;
    int offset;
    int lo;
    int hi;
    uint flags;
} Params;

typedef struct {
    int value;
    int clipped;
} Result;

static Result apply(Params p, int x)
{
    Result r;
    int y = x * p.scale + p.offset;
    r.clipped = (y < p.lo) || (y > p.hi);
    r.value = clamp(y, p.lo, p.hi);
    if (p.flags & 1u)
        r.value = -r.value;
    return r;
}

__kernel void struct_byval(__global const int *in, __global int *out, Params p)
{
    size_t i = get_global_id(0);
    Result r = apply(p, in[i]);
    out[2 * i] = r.value;
    out[2 * i + 1] = r.clipped;
}
