/// Whether `name` can name an engine: 1 to 64 lower-case ASCII letters, digits, `-`, `_` and `.`,
/// starting with a letter or digit — safe in a cell name, a file name and a markdown table. The
/// one rule: the results files, the engine protocol's `hello` (`ProcessEngine.isValidName`) and the
/// command line's registry (`EngineRegistry.isValidName`) all ask this. O(1) (at
/// most 65 bytes are looked at).
package func isEngineSlug(_ name: String) -> Bool {
    var count = 0
    for byte in name.utf8 {
        count += 1
        let letterOrDigit = (0x61...0x7a).contains(byte) || (0x30...0x39).contains(byte)
        guard count <= 64, letterOrDigit || (count > 1 && (byte == 0x2d || byte == 0x5f || byte == 0x2e)) else { return false }
    }
    return count > 0
}
