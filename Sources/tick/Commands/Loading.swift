import TickCore

/// The folder's lists as a read command sees them.
struct LoadedFolder {
    var folder: Folder
    var library: Library
    /// Some list could not be read: the command still answers, then exits with status 3.
    var incomplete: Bool

    /// The exit status of a read command that succeeded.
    var status: ExitStatus { incomplete ? .io : .success }
}

extension Invocation {
    /// Finds the folder and reads every list; skipped and unreadable files become warnings.
    func load() throws -> LoadedFolder {
        let folder = try folder()
        let result = folder.load(environment: context.environment)
        for problem in result.problems { warn(problem.description) }
        for (file, error) in result.readErrors { err.line("tick: cannot read '\(file.path)': \(error.reason)") }
        return LoadedFolder(folder: folder, library: result.library, incomplete: !result.readErrors.isEmpty)
    }

    /// The list named by `text` (`--list L`, `tick ls LIST`).
    func resolveList(_ text: String, in library: Library) throws -> Int {
        switch library.resolve(list: text) {
        case .found(let index): return index
        case .notFound:
            let names = library.lists.map { $0.file.baseName }
            let suggestion = Suggestion.closest(to: text.lowercased(), among: names)
            throw CommandFailure(.negative, "no list named '\(text)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        case .ambiguous(let candidates):
            let names = candidates.map { "\(library.lists[$0].name) (\(library.lists[$0].file.path))" }
            throw CommandFailure(.negative, "'\(text)' names several lists: " + names.joined(separator: ", "))
        }
    }

    /// The task named by `text`: a ref, an exact title, or a unique part of a title.
    func resolveTask(_ text: String, in library: Library) throws -> TaskID {
        switch library.resolve(ref: text) {
        case .found(let id): return id
        case .notFound: throw CommandFailure(.negative, "no task matches '\(text)'")
        case .ambiguous(let candidates):
            let shown = candidates.prefix(8).map { "\(library.ref($0)) (\(library.task($0).title))" }
            let more = candidates.count > 8 ? " and \(candidates.count - 8) more" : ""
            throw CommandFailure(.negative, "'\(text)' matches several tasks: " + shown.joined(separator: ", ") + more)
        }
    }
}
