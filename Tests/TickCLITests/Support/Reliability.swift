#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TickCore

// Helpers for the reliability tests: what a folder holds, running tick without root's
// privileges, a bounded draw from the seeded generator (TickCore's `SeededGenerator`).

// MARK: - Snapshots

/// Everything below a folder except tick's own state (any `.tick/` folder): each entry's kind, permissions,
/// and bytes (a file) or target (a symbolic link). Symbolic links are recorded, never followed.
struct FolderSnapshot: Equatable, CustomStringConvertible {
    enum Entry: Equatable {
        case file(bytes: [UInt8], mode: UInt32)
        case folder(mode: UInt32)
        case link(target: String)
        case other
    }

    /// Keyed by path relative to the folder.
    var entries: [String: Entry] = [:]

    init(_ root: String) {
        walk(root, relative: "")
    }

    private mutating func walk(_ root: String, relative: String) {
        let full = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names.sorted() where name != ".tick" {
            let child = relative.isEmpty ? name : relative + "/" + name
            let path = root + "/" + child
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let mode = UInt32(info.st_mode & 0o7777)
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
                entries[child] = .file(bytes: bytes, mode: mode)
            case S_IFDIR:
                entries[child] = .folder(mode: mode)
                walk(root, relative: child)
            case S_IFLNK:
                entries[child] = .link(target: (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "")
            default:
                entries[child] = .other
            }
        }
    }

    var description: String {
        entries.keys.sorted().map { key in
            switch entries[key]! {
            case .file(let bytes, let mode): return "\(key) file \(String(mode, radix: 8)) \(bytes.count) bytes"
            case .folder(let mode): return "\(key)/ \(String(mode, radix: 8))"
            case .link(let target): return "\(key) -> \(target)"
            case .other: return "\(key) (other)"
            }
        }.joined(separator: "\n")
    }
}

/// Expects the folder to hold exactly what `before` recorded.
func expectUnchanged(_ folder: String, since before: FolderSnapshot,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    let after = FolderSnapshot(folder)
    #expect(after == before, "the folder changed:\nbefore\n\(before)\nafter\n\(after)", sourceLocation: sourceLocation)
}

// MARK: - Privileges

/// How to run tick so that file permissions apply to it.
///
/// Root ignores permissions (the capabilities CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), so a
/// test as root runs tick through `setpriv` with those two removed from its bounding set: after
/// `exec`, tick runs as root without them, and a file with mode 000 is unreadable to it. Any
/// other user needs no launcher.
enum Unprivileged {
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The launcher for `Sandbox.run`, or nil when tick cannot be run without the privileges.
    static var launcher: [String]? {
        guard geteuid() == 0 else { return [] }
        return setpriv.map { [$0, "--bounding-set=-dac_override,-dac_read_search"] }
    }
}

// MARK: - Random

extension SeededGenerator {
    /// A number in 0..<bound (by remainder: the seeded tests only need it reproducible).
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
