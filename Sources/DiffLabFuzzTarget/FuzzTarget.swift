// The libFuzzer entry point. Build with
//   swift build -c release --sanitize=fuzzer --sanitize=address --product difflab-fuzz
// (Scripts/fuzz does). libFuzzer supplies `main`; this file has no top-level code, so a plain
// `swift build` links a binary that does nothing.
import DiffLabFuzz

/// Decodes the bytes as a choice sequence (the same decoder `difflab fuzz` shrinks with), checks
/// every property on every engine, and crashes with the failure so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func difflabFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let (failure, input) = checkFuzzerInput(bytes) {
        preconditionFailure("\(failure) — old \(input.old) new \(input.new)")
    }
    return 0
}
