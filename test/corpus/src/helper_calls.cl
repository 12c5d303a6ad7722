// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Several kernels in one module sharing non-inlined helper functions
// (noinline), a helper with pointer out-parameters, and one kernel
// calling another kernel as an ordinary function (allowed in OpenCL C).

__attribute__((noinline)) static int gcd(int a, int b)
{
    a = abs(a);
    b = abs(b);
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

__attribute__((noinline)) static void divmod(uint n, uint d, uint *q, uint *r)
{
    *q = n / d;
    *r = n - *q * d;
}

__kernel void helper_gcd(__global const int *a, __global const int *b, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = gcd(a[i], b[i]);
}

__kernel void helper_divmod(__global const uint *n, __global uint *q, __global uint *r)
{
    size_t i = get_global_id(0);
    uint qq, rr;
    divmod(n[i], (uint)i + 1u, &qq, &rr);
    q[i] = qq;
    r[i] = rr;
}

__kernel void helper_both(__global const int *a, __global const int *b, __global int *g,
                          __global const uint *n, __global uint *q, __global uint *r)
{
    helper_gcd(a, b, g);
    helper_divmod(n, q, r);
}
