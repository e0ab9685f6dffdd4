#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TickCore

/// `tick edit REF [--title T] [--note TEXT] [--append-note TEXT] [--due DATE] [--priority P]`,
/// or with no option, the task's title line and notes in `$VISUAL` / `$EDITOR`.
@Sendable func runEdit(_ invocation: Invocation) throws -> ExitStatus {
    let options = ["title", "note", "append-note", "due", "priority"]
    guard options.contains(where: { invocation.value($0) != nil }) else { return try runEditor(invocation) }

    var edits: [@Sendable (Document, Int) throws -> Document] = []
    var changes: [String] = []
    if let due = invocation.value("due") {
        let date = try invocation.dueDate(due)
        edits.append { try $0.settingDue($1, date).document }
        changes.append("due")
    }
    if let level = invocation.value("priority") {
        let value = try priority(named: level, argument: "--priority")
        edits.append { try $0.settingPriority($1, value).document }
        changes.append("priority")
    }
    if let notes = invocation.value("note") {
        edits.append { try $0.replacingNotes($1, notes).document }
        changes.append("notes")
    }
    if let note = invocation.value("append-note") {
        edits.append { try $0.appendingNote($1, note).document }
        if !changes.contains("notes") { changes.append("notes") }
    }
    if let title = invocation.value("title") {
        let title = try TaskTitle.validated(title)
        edits.append { try $0.retitling($1, title).document }
        changes.insert("title", at: 0)
    }

    let session = try invocation.openForWriting(create: false)
    let before = session.library
    let id = try invocation.resolveTask(invocation.value("REF")!, in: before)
    let key = try session.writing().update([before.key(id)], summary: "edited \"\(before.task(id).title)\"") { document, i in
        try edits.reduce(document) { try $1($0, i) }
    }[0]
    return try finishEdit(invocation, session: session, key: key, changes: changes)
}

/// Prints the line (or task object) for an edited task.
private func finishEdit(_ invocation: Invocation, session: WriteSession, key: TaskKey, changes: [String]) throws -> ExitStatus {
    let after = session.library
    guard let id = after.id(of: key) else { throw MutationError.taskGone(key) }
    invocation.report(["Edited \(describe(id, in: after)): " + changes.joined(separator: ", ")], tasks: [id], in: after)
    return session.loaded.status
}

// MARK: - The editor

/// Opens the task's title line and notes in the user's editor, then writes back what changed.
///
/// The text is the title line as written (title and tokens, `due:` taking date words), a blank
/// line, then the notes. The folder is not locked while the editor runs; afterwards tick finds
/// the task again by its title and applies only the fields that changed.
private func runEditor(_ invocation: Invocation) throws -> ExitStatus {
    let now = try invocation.now()
    guard let editor = [invocation.context.environment["VISUAL"], invocation.context.environment["EDITOR"]]
        .compactMap({ $0 }).first(where: { !$0.trimmingSpaces().isEmpty }) else {
        throw UsageError.invalidInput("no editor: set $VISUAL or $EDITOR, or give --title, --note, --append-note, --due or --priority")
    }
    let loaded = try invocation.load()
    let id = try invocation.resolveTask(invocation.value("REF")!, in: loaded.library)
    let key = loaded.library.key(id)
    let file = loaded.library.list(id).file
    let document: Document
    do { document = Document(bytes: try invocation.fileSystem.readFile(file.absolutePath)) } catch FileSystemError.notFound {
        throw MutationError.listGone(path: file.path)
    }
    guard let index = document.index(of: key) else { throw MutationError.taskGone(key) }
    let titleLine = rawTitleLine(document, index)
    let notes = document.notes[index]
    let original = titleLine + "\n" + (notes.isEmpty ? "" : "\n" + notes + "\n")

    let edited = try editInEditor(original, editor: editor, environment: invocation.context.environment)
    guard edited != original else {
        invocation.say("No changes to \(describe(id, in: loaded.library))")
        return loaded.status
    }
    var lines = edited.replacingOccurrences("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while let first = lines.first, first.trimmingSpaces().isEmpty { lines.removeFirst() }
    guard !lines.isEmpty else { throw UsageError.invalidInput("the edited text is empty; nothing changed") }
    let newTitle = try TitleInput(parsing: lines.removeFirst(), now: now)
    let newNotes = lines.joined(separator: "\n")
    let old = try TitleInput(parsing: titleLine, now: now)

    var edits: [@Sendable (Document, Int) throws -> Document] = []
    var changes: [String] = []
    if newTitle.title != old.title {
        let title = try TaskTitle.validated(newTitle.title)
        edits.append { try $0.retitling($1, title).document }
        changes.append("title")
    }
    if newTitle.due != old.due {
        edits.append { try $0.settingDue($1, newTitle.due).document }
        changes.append("due")
    }
    if newTitle.priority != old.priority {
        edits.append { try $0.settingPriority($1, newTitle.priority ?? .none).document }
        changes.append("priority")
    }
    if newTitle.flagged != old.flagged {
        edits.append { try $0.settingFlag($1, newTitle.flagged).document }
        changes.append("flag")
    }
    if newTitle.doneDate != old.doneDate {
        let day = newTitle.doneDate
        edits.append { try $0.settingDone($1, day != nil, on: day ?? now.day).document }
        changes.append(day == nil ? "reopened" : "done")
    }
    if newNotes.trimmingSpaces() != notes.trimmingSpaces() {
        edits.append { try $0.replacingNotes($1, newNotes).document }
        changes.append("notes")
    }
    guard !edits.isEmpty else {
        invocation.say("No changes to \(describe(id, in: loaded.library))")
        return loaded.status
    }

    let session = try invocation.openForWriting(create: false)
    let newKey = try session.writing().update([key], summary: "edited \"\(key.title)\"") { document, i in
        try edits.reduce(document) { try $1($0, i) }
    }[0]
    return try finishEdit(invocation, session: session, key: newKey, changes: changes)
}

/// The title line of task `i` after its checkbox, as written: title and tokens.
private func rawTitleLine(_ document: Document, _ i: Int) -> String {
    let line = document.lineText(document.tasks[i].line)
    for box in ["[ ]", "[x]", "[X]"] {
        if let range = line.range(of: box) {
            return String(line[range.upperBound...]).trimmingSpaces()
        }
    }
    return document.tasks[i].title
}

/// Writes `text` to a temporary file, runs the editor on it and returns what it holds after.
/// An editor that cannot start or exits non-zero changes nothing.
private func editInEditor(_ text: String, editor: String, environment: [String: String]) throws -> String {
    let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/tick-edit-XXXXXX.md").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
    guard fd >= 0 else { throw FileSystemError(errno: errno, path: directory, operation: "create a temporary file in") }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { unlink(path) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    guard written == bytes.count else { throw FileSystemError(errno: errno, path: path, operation: "write") }

    // Like git: the editor's value is shell text, so `EDITOR="code --wait"` works.
    let termination: Subprocess.Termination
    do {
        termination = try Subprocess.run("/bin/sh", arguments: ["/bin/sh", "-c", editor + " \"$@\"", editor, path])
    } catch {
        throw CommandFailure(.negative, error.operation == "start" ? "cannot start the editor '\(editor)'; nothing changed"
                                 : "lost the editor '\(editor)'; nothing changed")
    }
    switch termination {
    case .exited(0): break
    case .exited(let code): throw CommandFailure(.negative, "the editor '\(editor)' exited with status \(code); nothing changed")
    case .signalled(let signal): throw CommandFailure(.negative, "the editor '\(editor)' was stopped by signal \(signal); nothing changed")
    }
    let content = try LocalFileSystem().readFile(path)
    return String(decoding: content, as: UTF8.self)
}

extension String {
    /// Without spaces, tabs and line breaks at either end.
    func trimmingSpaces() -> String { trimmingCharacters(in: " \t\r\n") }

    /// Every occurrence of `target` replaced.
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    /// The first range where `target` occurs.
    func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<index(i, offsetBy: target.count) }
            i = index(after: i)
        }
        return nil
    }
}

extension String {
    func range(of target: String) -> Range<Index>? { self[...].range(of: target) }
}
