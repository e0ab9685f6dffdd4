import TickFormat
import Foundation

let path = CommandLine.arguments[1]
let data = FileManager.default.contents(atPath: path)!
let doc = Document(bytes: Array(data))
print("heading:", doc.heading ?? "-", "fm:", doc.frontMatter?.fields.map { "\($0.key)=\($0.value)" } ?? [])
for (i, t) in doc.tasks.enumerated() {
    print(i, "line", t.line, "lines", doc.lineRange(of: i), "done", t.done, "title", "[\(t.title)]", "due", t.due?.description ?? "-", "pri", t.priority.rawValue, "flag", t.flagged, "tags", t.tags, "parent", t.parent ?? -1, "section", t.section ?? "-", "notes", "[\(doc.notes[i])]")
}
for d in doc.diagnostics { print("diag", d) }
print(doc.serialize() == Array(data))
