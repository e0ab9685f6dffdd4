import TickFormat

/// A task's title line and notes as its file holds them: what `tick edit` opens in an editor, and
/// the edits that turn it into what the editor saved.
public struct TaskText: Sendable, Equatable {
    /// The task, to find it again after the editor (which runs without the folder's lock).
    public var key: TaskKey
    /// The title line after the checkbox, as written (title and tokens), trimmed.
    public var titleLine: String
    public var notes: String

    /// The text an editor shows: the title line, then a blank line and the notes when there are any.
    public var editable: String { titleLine + "\n" + (notes.isEmpty ? "" : "\n" + notes + "\n") }

    /// The edits that turn this text into `edited` (as the editor saved it), field by field: only
    /// the fields whose value changed. Line endings may be LF or CRLF; blank lines and spaces
    /// around the notes do not count.
    public func edits(to edited: String, now: Now) throws -> [TaskEdit] {
        var lines = edited.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        let blank = { (line: String) in line.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" } }
        while let first = lines.first, blank(first) { lines.removeFirst() }
        guard !lines.isEmpty else { throw MutationError.badValue("the edited text is empty; nothing changed") }
        let new = try TitleInput(parsing: lines.removeFirst(), now: now)
        let newNotes = lines.joined(separator: "\n")
        let old = try TitleInput(parsing: titleLine, now: now)

        var edits: [TaskEdit] = []
        if new.title != old.title { edits.append(.retitle(try TaskTitle.validated(new.title))) }
        if new.due != old.due { edits.append(.due(new.due)) }
        if new.priority != old.priority { edits.append(.priority(new.priority ?? .none)) }
        if new.flagged != old.flagged { edits.append(.flag(new.flagged)) }
        if new.recurrence != old.recurrence { edits.append(.recurrence(new.recurrence)) }
        if new.until != old.until { edits.append(.until(new.until)) }
        if new.doneDate != old.doneDate {
            edits.append(new.doneDate.map { old.doneDate == nil ? .complete(on: $0) : .completionDate($0) } ?? .reopen)
        }
        if newNotes.trimmingInvisibleSpace() != notes.trimmingInvisibleSpace() { edits.append(.replaceNotes(newNotes)) }
        return edits
    }
}

extension Folder {
    /// The text of task `id` of `library` as its file holds it now (the title line from the
    /// parser's positions, never from a search of the line).
    public func text(of id: TaskID, in library: Library) throws -> TaskText {
        let key = library.key(id)
        let document: Document
        do {
            document = self.document(try fileSystem.readFile(absolute(key.path)))
        } catch FileSystemError.notFound {
            throw MutationError.listGone(path: key.path)
        }
        guard let i = document.index(of: key) else { throw MutationError.taskGone(key) }
        return TaskText(key: key, titleLine: document.titleLineText(i).trimmingInvisibleSpace(), notes: document.notes[i])
    }
}
