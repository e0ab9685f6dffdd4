import TickCore

/// The folder's lists as a read command sees them.
struct LoadedFolder {
    var folder: Folder
    var library: Library
    /// Some list could not be read: the command still answers, then exits with status 3.
    var incomplete: Bool

    /// The exit status of a read command that succeeded.
    var status: ExitStatus { incomplete ? .io : .success }

    /// The exit status of a listing given a query (`find`, `search`, a saved view, `--where`):
    /// 1 when the query matched no task, as grep (README "Exit codes"). A listing without a query
    /// (`tick today`, `tick ls Inbox`) exits 0 when empty.
    func status(matched count: Int) -> ExitStatus { incomplete ? .io : count == 0 ? .negative : .success }
}

extension Invocation {
    /// Finds the folder and reads every list; skipped files become warnings unless `warnings` is
    /// false (`tick status`, which a shell prompt runs), unreadable ones errors.
    func load(warnings: Bool = true) throws -> LoadedFolder {
        let folder = try folder()
        return try loaded(folder.load(environment: context.environment), in: folder, warnings: warnings)
    }

    /// The lists read from `folder`: skipped files become warnings; a list or subfolder that could
    /// not be read is named on standard error and makes the answer incomplete (exit status 3).
    func loaded(_ result: LoadResult, in folder: Folder, warnings: Bool = true) throws -> LoadedFolder {
        var unreadableFolders = false
        for problem in result.problems {
            if case .unreadable(let path, let error) = problem {
                try Invocation.refuseUnreadableRoot(path, error, folder: folder)
                // The lists inside it are missing from the answer, as for an unreadable list.
                err.line("tick: cannot read '\(path)': \(error.reason)")
                unreadableFolders = true
            } else if warnings {
                warn(problem.description)
            }
        }
        for (file, error) in result.readErrors { err.line("tick: cannot read '\(file.path)': \(error.reason)") }
        return LoadedFolder(folder: folder, library: result.library,
                            incomplete: unreadableFolders || !result.readErrors.isEmpty)
    }

    /// The views' one line on standard error about the lists (of `lists`, every list when nil) that
    /// hold problems reading found (conflict markers, tokens like fields that are not): `tick: 2
    /// problems in Work (tick check work.md)`, or for several lists `tick: 5 problems in 3 lists:
    /// Home, Work, Shop (tick check)`. Nothing with `--json`; the exit status is the view's.
    func reportProblems(in library: Library, lists: [Int]? = nil) {
        guard !global.json else { return }
        let affected = (lists ?? Array(library.lists.indices)).filter { library.lists[$0].problemCount > 0 }
        guard !affected.isEmpty else { return }
        let total = affected.reduce(0) { $0 + library.lists[$1].problemCount }
        let problems = total == 1 ? "1 problem" : "\(total) problems"
        let labels = library.listLabels()
        if affected.count == 1 {
            let list = library.lists[affected[0]]
            err.line("tick: \(problems) in \(labels[affected[0]]) (tick check \(shellQuoted(list.file.path)))")
            return
        }
        let named = affected.prefix(3).map { labels[$0] }.joined(separator: ", ")
        let more = affected.count > 3 ? " and \(affected.count - 3) more" : ""
        err.line("tick: \(problems) in \(affected.count) lists: \(named)\(more) (tick check)")
    }

    /// A task folder that cannot be listed is an I/O error of the whole command, named by its path:
    /// an empty answer ("No lists yet") would be false.
    static func refuseUnreadableRoot(_ path: String, _ error: FileSystemError, folder: Folder) throws {
        guard path == "." else { return }
        throw CommandFailure(.io, "cannot read the task folder '\(folder.path)': \(error.reason)")
    }

    /// The list named by `text` (`--list L`, `tick ls LIST`). Where a task is to go (`add`, `mv`),
    /// `creating` says how to create a missing list (`tick list new X`), and `create` as well.
    func resolveList(_ text: String, in library: Library, creating: Bool = false) throws -> Int {
        // An empty name is a prefix of every name: never let it pick the only list.
        guard !text.allSatisfy(\.isWhitespace) else { throw CommandFailure(.usage, "a list name cannot be empty") }
        switch library.resolve(list: text) {
        case .found(let index): return index
        case .notFound:
            let names = library.lists.map { $0.file.baseName }
            let suggestion = Suggestion.closest(to: text.lowercased(), among: names)
            // Only a name that list new takes (not `../up`).
            let creatable = creating && (try? TaskFolder.newList(text, fields: [])) != nil
            let create = creatable ? "; tick list new \(shellQuoted(text)) creates it" : ""
            throw CommandFailure(.negative, "no list named '\(text)'" + searched
                                 + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + create)
        case .ambiguous(let candidates):
            let names = candidates.map { "\(library.lists[$0].name) (\(library.lists[$0].file.path))" }
            throw CommandFailure(.negative, "'\(text)' names several lists\(searched): " + names.joined(separator: ", "))
        }
    }

    /// The task named by `text`: a ref, an exact title, or a unique part of a title. `preferring` settles
    /// an ambiguity when exactly one candidate satisfies it (`done`: the open ones).
    func resolveTask(_ text: String, in library: Library, preferring: ((TaskID) -> Bool)? = nil) throws -> TaskID {
        try resolveTask(text, in: library, preferring: preferring, twins: false).id
    }

    /// `resolveTask`; with `twins`, a REF whose candidates are all twins (`Library.areTwins`) names the
    /// first of them, and `twins` of the answer is how many there are (0 otherwise).
    func resolveTask(_ text: String, in library: Library, preferring: ((TaskID) -> Bool)?,
                     twins: Bool) throws -> (id: TaskID, twins: Int) {
        switch library.resolve(ref: text, preferring: preferring) {
        case .found(let id): return (id, 0)
        case .ambiguous(let candidates, false) where twins && library.areTwins(candidates):
            return (candidates[0], candidates.count)
        case .notFound: throw CommandFailure(.negative, "no task matches '\(text)'" + searched)
        case .lost(let title, let reason):
            throw CommandFailure(.negative, "'\(text)' named \"\(title)\", \(reason); no task has that ref now")
        case .gone:
            throw CommandFailure(.negative, "'\(text)' named a task that tick has since removed, moved or changed; "
                                 + "no task has that ref now")
        case .ambiguous(let candidates, let retired):
            let shown = candidates.prefix(8).map { candidate(of: $0, in: library) }
            let more = candidates.count > 8 ? " and \(candidates.count - 8) more" : ""
            let gone = retired ? "; it may also be the ref of a task that tick has since removed, moved or changed" : ""
            throw CommandFailure(.negative, "'\(text)' matches several tasks\(searched): " + shown.joined(separator: ", ") + more + gone)
        }
    }

    /// A candidate of an ambiguous REF, with what tells it apart: `5pr "Buy milk" (Groceries, open, due 2026-12-02)`.
    private func candidate(of id: TaskID, in library: Library) -> String {
        let task = library.task(id)
        var facts = [library.listLabels()[id.list], task.done ? "done" : "open"]
        if let due = task.due { facts.append("due \(due)") }
        return "\(library.ref(id)) \"\(task.title)\" (" + facts.joined(separator: ", ") + ")"
    }

    /// ` in FOLDER (the default folder)` when the task folder is the default one, which the user
    /// did not name (no `--dir`, `TICK_DIR` or `.tick/` above): so that a message about a missing
    /// list or task says where tick looked. Empty otherwise.
    private var searched: String {
        guard let folder = try? folder(), folder.location.source == .defaultLocation else { return "" }
        return " in \(folder.path) (the default folder)"
    }
}
