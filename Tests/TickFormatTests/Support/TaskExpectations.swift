import Testing
import TickFormat

/// What a test expects of one task: its title, its state and the line of its checkbox.
struct ExpectedTask: Equatable, CustomStringConvertible {
    var title: String
    var done: Bool
    var line: Int

    static func open(_ title: String, line: Int) -> ExpectedTask { ExpectedTask(title: title, done: false, line: line) }
    static func done(_ title: String, line: Int) -> ExpectedTask { ExpectedTask(title: title, done: true, line: line) }

    init(title: String, done: Bool, line: Int) {
        self.title = title
        self.done = done
        self.line = line
    }

    init(_ task: TickFormat.Task) { self.init(title: task.title, done: task.done, line: task.line) }

    var description: String { "\(done ? "[x]" : "[ ]") \(title.debugDescription) @\(line)" }
}

/// Parses `bytes`, checks that serializing gives them back exactly and that the tasks are
/// `expected`, and returns the document for further checks.
@discardableResult
func expectTasks(
    in bytes: [UInt8], _ expected: [ExpectedTask], sourceLocation: SourceLocation = #_sourceLocation
) -> Document {
    let document = Document(bytes: bytes)
    #expect(document.serialize() == bytes, "round trip changed the bytes", sourceLocation: sourceLocation)
    #expect(document.tasks.map(ExpectedTask.init) == expected, sourceLocation: sourceLocation)
    return document
}

/// `expectTasks(in:_:)` for a text without invalid UTF-8.
@discardableResult
func expectTasks(
    in text: String, _ expected: [ExpectedTask], sourceLocation: SourceLocation = #_sourceLocation
) -> Document {
    expectTasks(in: Array(text.utf8), expected, sourceLocation: sourceLocation)
}
