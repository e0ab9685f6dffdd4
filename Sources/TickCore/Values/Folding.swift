/// Folding for search: lower case, without diacritics (`Café` → `cafe`, `Straße` → `strasse`).
///
/// Letters of the Latin, Greek and Cyrillic scripts, the Latin ligatures (`ﬁ` → `fi`) and the
/// fullwidth forms of ASCII (`Ｔｉｃｋ` → `tick`) fold through `table` (FoldingTable.swift, written
/// by scripts/generate-folding-table from the Unicode data: compatibility decomposition, marks
/// dropped, full case folding, so `ς` → `σ`, plus a few transliterated letters such as `ø` → `o`).
/// Combining marks are dropped; every other character is lower-cased with the standard library's
/// Unicode data. No Foundation, so it can run in the fast path.
public enum Folding {
    /// Appends the folded UTF-8 of `bytes` (UTF-8; invalid sequences are kept as U+FFFD) to `out`.
    public static func fold<C: Collection<UInt8>>(_ bytes: C, into out: inout [UInt8]) {
        let done: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            for b in buffer where b >= 0x80 { return false }
            let start = out.count
            out.append(contentsOf: buffer)
            out.withUnsafeMutableBufferPointer { o in
                for i in start..<o.count where o[i] >= 0x41 && o[i] <= 0x5A { o[i] += 32 }
            }
            return true
        }
        if done == true { return }
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            fold(scalar, into: &out)
        }
    }

    public static func fold(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        fold(text.utf8, into: &out)
        return out
    }

    static func fold(_ scalar: Unicode.Scalar, into out: inout [UInt8]) {
        let v = scalar.value
        if v < 0x80 {
            let b = UInt8(v)
            out.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
        } else if let mapped = table[v] {
            out.append(contentsOf: mapped.utf8)
        } else if scalar.properties.generalCategory == .nonspacingMark {
            return
        } else {
            out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
        }
    }

    /// The folded text as a string, and for each of its bytes the index of the character of `text`
    /// it came from (to highlight matches in the original).
    static func foldWithOrigins(_ text: String) -> (folded: [UInt8], origin: [Int]) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return (text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, Array(0..<text.utf8.count))
        }
        var folded: [UInt8] = []
        var origin: [Int] = []
        for (i, character) in text.enumerated() {
            let before = folded.count
            for scalar in character.unicodeScalars { fold(scalar, into: &folded) }
            origin.append(contentsOf: repeatElement(i, count: folded.count - before))
        }
        return (folded, origin)
    }
}
