// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// for / while / do-while loops, nested, with break and continue, a data-dependent
// trip count (Collatz steps, bounded) and an early exit from an inner loop.

__kernel void loops_mixed(__global const uint *in, __global uint *out, int n)
{
    int i = get_global_id(0);
    uint x = in[i] | 1u;

    uint steps = 0;
    while (x != 1u && steps < 500u) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        ++steps;
    }

    uint acc = 0;
    for (int a = 0; a < n; ++a) {
        if ((a % 3) == 0)
            continue;
        for (int b = 0; b < n; ++b) {
            if (b > a)
                break;
            acc += (uint)(a * b) ^ in[(a + b) % n];
        }
    }

    uint digits = 0;
    uint v = in[i];
    do {
        ++digits;
        v /= 10u;
    } while (v != 0u);

    out[3 * i] = steps;
    out[3 * i + 1] = acc;
    out[3 * i + 2] = digits;
}
