// The libFuzzer entry point over DiffLab's file decoders. Build with
//   swift build -c release --sanitize=fuzzer --sanitize=address --product difflab-decode-fuzz
// (Scripts/fuzz --target decode does). libFuzzer supplies `main`; this file has no top-level code,
// so a plain `swift build` links a binary that does nothing.
import DiffLabDecodeFuzzing

/// Feeds the bytes to one decoder (picked by the first byte) and checks what it decodes; see
/// `DecoderFuzzing` in DiffLabDecodeFuzzing. A trap or a broken invariant crashes, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func difflabDecodeFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    DecoderFuzzing.check(bytes)
    return 0
}
