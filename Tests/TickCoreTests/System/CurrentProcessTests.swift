#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TickCore

/// `CurrentProcess.environment`: the process's environment as the dictionary every command reads.
@Suite("current process: its environment")
struct CurrentProcessTests {
    @Test("each name maps to the text after its first '=': the first of a repeated name, other scripts and empty values kept")
    func environment() {
        let entries = ["A=a=b=c", "TEXT=Einkäufe ✓", "EMPTY=", "NOEQUALS", "A=second", "=nameless"]
        var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let environment = pointers.withUnsafeMutableBufferPointer { CurrentProcess.environment(from: $0.baseAddress!) }
        #expect(environment == ["A": "a=b=c", "TEXT": "Einkäufe ✓", "EMPTY": "", "": "nameless"])
    }
}
