// ALU-bound kernel for the interpreter's dispatch benchmark (bench/run_bench.cpp): a loop of
// integer arithmetic with no memory access and no calls, so lane-instructions per second
// measure the executor itself.
__kernel void alu_loop(__global uint *out, uint iterations)
{
    uint i = get_global_id(0);
    uint x = i, y = i * 2654435761u, z = 12345u;
    for (uint n = 0; n < iterations; ++n) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        z += y & 0xffu;
        y = y * 5u + (z >> 3);
    }
    out[i] = x ^ y ^ z;
}
