import Foundation
import Testing

/// `mv --where` of many tasks, which tick makes with one splice for each list (issue 44, item 6):
/// the lists end as moving the tasks one at a time leaves them, byte for byte, and one undo
/// restores every byte. (Its time is measured by `make bench`, never here.)
@Suite("mv of many tasks in one pass")
struct BulkMoveTests {
    /// A list of `count` tasks, every third tagged `#x`: some with notes, subtasks (with
    /// `taggedSubtasks`, some tagged under an untagged parent), blank lines between, in `eol` line endings; and the titles
    /// `mv --where '#x'` moves, in order (with the tag, which is part of a title).
    static func list(_ count: Int, eol: String, taggedSubtasks: Bool = true, marker: (Int) -> String) -> (text: String, moved: [String]) {
        var text = "# Source" + eol + eol + "Some prose." + eol + eol
        var moved: [String] = []
        for i in 0..<count {
            let tagged = i % 3 == 0
            let title = String(format: "t%03d", i)
            let m = marker(i)
            let pad = String(repeating: " ", count: m.count + 1)
            text += m + " [ ] " + title + (tagged ? " #x" : "") + (i % 7 == 0 ? " due:2026-03-20" : "") + eol
            if tagged { moved.append(title + " #x") }
            if i % 4 == 0 { text += pad + "a note of " + title + eol }
            if i % 5 == 0 {
                text += pad + "- [ ] " + title + "s1" + eol
                let sub = taggedSubtasks && i % 2 == 0 && !tagged
                text += pad + "- [ ] " + title + "s2" + (sub ? " #x" : "") + eol
                if sub { moved.append(title + "s2 #x") }
            }
            if i % 11 == 0 { text += eol }
        }
        return (text, moved)
    }

    @Test("mv --where of 150 tasks from two lists writes what moving them one at a time writes; one undo restores it",
          arguments: [("\n", false), ("\r\n", true)])
    func manyMoved(eol: String, ordered: Bool) throws {
        let a = Self.list(150, eol: eol) { _ in "-" }
        let c = Self.list(150, eol: eol, taggedSubtasks: false) { ordered ? "\($0 + 1)." : "*" }
        let cText = c.text.replacingOccurrences(of: "t", with: "u", options: [], range: nil)
            .replacingOccurrences(of: "# Source", with: "# Second")
        let cMoved = c.moved.map { $0.replacingOccurrences(of: "t", with: "u") }
        let files = ["a.md": a.text, "c.md": cText, "other.md": "# Other" + eol + eol + "1. [ ] kept" + eol]
        let alone = try Fixtures.folder(files)
        // One at a time in the order `--where` takes them: the order `find` lists them in.
        let found = try alone.run(["--dir", "tasks", "find", "#x", "--json"])
        let objects = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]] ?? []
        let titles = objects.compactMap { $0["title"] as? String }
        #expect(Set(titles) == Set(a.moved + cMoved) && titles.count == a.moved.count + cMoved.count)
        for title in titles {
            expectRun(try alone.run(["--dir", "tasks", "mv", title, "other", "--quiet"]), status: 0)
        }
        let sandbox = try Fixtures.folder(files)
        let result = try sandbox.run(["--dir", "tasks", "mv", "--where", "#x", "other", "--yes", "--quiet"])
        #expect(result.status == 0, "\(result)")
        for name in ["a.md", "c.md", "other.md"] {
            #expect(try sandbox.read("tasks/" + name) == alone.read("tasks/" + name), "\(name)")
        }
        #expect(try sandbox.read("tasks/other.md") != files["other.md"])
        expectRun(try sandbox.run(["--dir", "tasks", "undo", "--quiet"]), status: 0)
        for (name, text) in files { #expect(try sandbox.read("tasks/" + name) == text, "\(name)") }
    }
}
