#!/usr/bin/env python3
"""Intel image block read/write in xmx-run against an independent model.

usage: check_image_block.py XMX_RUN CORPUS_SPV_DIR WORKDIR

Runs the kernels of test/corpus/src/intel_image_block.cl, in each of its four builds (llc-22 and
llvm-spirv-15, -O0 and -O2), on images of 1-, 2- and 4-byte texels at coordinates inside, partly
outside, wholly outside and before (negative) the image, and compares the dumped buffer (reads)
or image (writes) with a model written here from SPEC-NOTES C.2/C.3 and the reading the README
documents (nothing is shared with source/interp):
  - component j of invocation i is the S bytes (S = component size) at byte column x + i * S of
    row y + j; no format conversion;
  - bounds are checked per 4-byte unit: a read takes each byte from its unit clamped into the
    row and its row clamped into the image, keeping the byte's place in the unit; a written
    byte whose unit or row is outside the image is dropped.
"""
import pathlib
import random
import subprocess
import sys

SG = 16
BUILDS = ["llc22.O0", "llc22.O2", "spirv15.O0", "spirv15.O2"]


class Image:
    def __init__(self, width, height, texel, rng):
        self.width, self.height, self.texel = width, height, texel
        self.row = width * texel
        self.data = bytearray(rng.getrandbits(8) for _ in range(self.row * height))

    def spec(self, path):
        return "image2d:%dx%d:%d:file=%s" % (self.width, self.height, self.texel, path)

    def read(self, x, y, size):
        """S = size bytes at byte column x of row y, clamped per 4-byte unit."""
        row = min(max(y, 0), self.height - 1)
        units = self.row // 4
        out = 0
        for b in range(size):
            byte = x + b
            unit, within = byte // 4, byte % 4  # floor division: unit -1 holds bytes -4..-1
            unit = min(max(unit, 0), units - 1)
            out |= self.data[row * self.row + unit * 4 + within] << (8 * b)
        return out

    def write(self, x, y, size, value):
        if y < 0 or y >= self.height:
            return
        for b in range(size):
            byte = x + b
            if 0 <= byte // 4 < self.row // 4:
                self.data[y * self.row + byte] = (value >> (8 * b)) & 0xFF


def block_read(image, x, y, lane, size, n):
    return [image.read(x + lane * size, y + j, size) for j in range(n)]


def expected_reads(image, x, y, lanes):
    """The 16 uints per work-item intel_image_block_read writes (12 used, 4 left zero)."""
    out = []
    m32 = 0xFFFFFFFF
    for gid in range(lanes):
        lane, sub = gid % SG, gid // SG
        yy = y + sub * 2
        a = block_read(image, x, yy, lane, 4, 1)
        b = block_read(image, x, yy, lane, 4, 2)
        c = block_read(image, x, yy, lane, 4, 4)
        d = block_read(image, x, yy, lane, 4, 8)
        e = block_read(image, x, yy, lane, 2, 1)
        f = block_read(image, x, yy, lane, 2, 8)
        g = block_read(image, x, yy, lane, 1, 1)
        h = block_read(image, x, yy, lane, 1, 16)
        words = [a[0], b[0], b[1], c[0] ^ c[3], d[0], d[7], (d[3] + d[4]) & m32, e[0],
                 f[0] | (f[7] << 16), g[0], h[0] | (h[15] << 8) | (h[8] << 16),
                 (c[1] + c[2]) & m32, 0, 0, 0, 0]
        out += words
    return b"".join(w.to_bytes(4, "little") for w in out)


def expected_writes(image, x, y, inputs):
    for lane in range(SG):
        v = inputs[lane]
        image.write(x + lane * 4, y, 4, v)
        image.write(x + lane * 4, y + 1, 4, (v + 1) & 0xFFFFFFFF)
        image.write(x + lane * 4, y + 2, 4, (v + 2) & 0xFFFFFFFF)
        for j, add in enumerate((0, 100, 200, 300)):
            image.write(x + 64 + lane * 2, y + j, 2, (lane + add) & 0xFFFF)
    return bytes(image.data)


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return "exit %d: %s" % (proc.returncode, " | ".join(proc.stderr.strip().splitlines()[-2:]))
    return None


def first_difference(want, got, unit):
    for i in range(0, min(len(want), len(got)), unit):
        if want[i:i + unit] != got[i:i + unit]:
            return "at byte %d: expected %s, got %s" % (i, want[i:i + unit].hex(),
                                                          got[i:i + unit].hex())
    return "sizes %d and %d" % (len(want), len(got))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    xmx_run, spv_dir, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(4)
    images = [(32, 8, 4), (64, 4, 1), (40, 6, 2)]
    read_coords = [(0, 0), (64, 3), (-8, -2), (2, 1), (1000, 100), (-100, 5)]
    write_coords = [(0, 0), (96, 2), (200, 6), (-4, -1), (1000, 0)]
    failures, runs = 0, 0
    for build in BUILDS:
        module = spv_dir / ("intel_image_block.%s.spv" % build)
        for width, height, texel in images:
            image = Image(width, height, texel, rng)
            image_path = work / ("%s.%dx%dx%d.bin" % (build, width, height, texel))
            image_path.write_bytes(bytes(image.data))
            for x, y in read_coords:
                runs += 1
                out = work / "read.out.bin"
                lanes = 2 * SG  # one work-group of two subgroups: y + 2 * subgroup id
                why = run([xmx_run, str(module), "--kernel", "intel_image_block_read",
                           "--global", str(lanes), "--local", str(lanes), "--subgroup-size", "16",
                           "--arg", image.spec(image_path),
                           "--arg", "buffer:zero:%d" % (lanes * 64),
                           "--arg", "i32:%d" % x, "--arg", "i32:%d" % y, "--dump", "1=%s" % out])
                want = expected_reads(image, x, y, lanes)
                if why is None and out.read_bytes() != want:
                    why = first_difference(want, out.read_bytes(), 4)
                if why:
                    failures += 1
                    print("FAIL %s read %dx%d texel %d at (%d, %d): %s" % (build, width, height,
                                                                          texel, x, y, why))
            for x, y in write_coords:
                if image.row < 4 * SG:
                    continue
                runs += 1
                inputs = [rng.getrandbits(32) for _ in range(SG)]
                in_path = work / "write.in.bin"
                in_path.write_bytes(b"".join(v.to_bytes(4, "little") for v in inputs))
                out = work / "write.out.bin"
                why = run([xmx_run, str(module), "--kernel", "intel_image_block_write",
                           "--global", str(SG), "--local", str(SG),
                           "--arg", image.spec(image_path), "--arg", "buffer:file=%s" % in_path,
                           "--arg", "i32:%d" % x, "--arg", "i32:%d" % y, "--dump", "0=%s" % out])
                fresh = Image(width, height, texel, rng)
                fresh.data = bytearray(image.data)
                want = expected_writes(fresh, x, y, inputs)
                if why is None and out.read_bytes() != want:
                    why = first_difference(want, out.read_bytes(), 1)
                if why:
                    failures += 1
                    print("FAIL %s write %dx%d texel %d at (%d, %d): %s" % (build, width, height,
                                                                           texel, x, y, why))
    print("%d of %d image block runs match the model" % (runs - failures, runs))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
