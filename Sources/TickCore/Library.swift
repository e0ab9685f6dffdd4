import Dispatch

// MARK: - Lists

/// A parsed list file.
public struct TaskList: Sendable {
    public let file: ListFile
    public let document: Document

    public init(file: ListFile, document: Document) {
        self.file = file
        self.document = document
    }

    /// The display name: the first level-1 heading, else the file name without `.md`.
    public var name: String { document.heading ?? file.baseName }
    public var symbol: String? { document.frontMatter?["symbol"] }
    public var color: String? { document.frontMatter?["color"] }
    public var openCount: Int { document.tasks.reduce(0) { $0 + ($1.done ? 0 : 1) } }
    public var doneCount: Int { document.tasks.count - openCount }
}

/// A task's address: which list, and its index in that list's `document.tasks`.
public struct TaskID: Hashable, Comparable, Sendable {
    public let list: Int
    public let index: Int

    public init(list: Int, index: Int) {
        self.list = list
        self.index = index
    }

    /// Folder order: list path order, then document order.
    public static func < (a: TaskID, b: TaskID) -> Bool { (a.list, a.index) < (b.list, b.index) }
}

// MARK: - Library

/// Every list of a folder, parsed, with the refs of all their tasks. Read-only: it never writes.
public struct Library: Sendable {
    /// Sorted by path.
    public let lists: [TaskList]
    /// Every task, in folder order; positions in this array are positions in `refs`.
    public let ids: [TaskID]
    public let refs: RefIndex
    /// Where each list's tasks start in `ids`.
    private let offsets: [Int]

    public init(lists: [TaskList]) {
        self.lists = lists
        var ids: [TaskID] = []
        var offsets: [Int] = []
        var refs: [Ref] = []
        for (l, list) in lists.enumerated() {
            offsets.append(ids.count)
            var builder = RefBuilder(path: list.file.path)
            for (i, task) in list.document.tasks.enumerated() {
                ids.append(TaskID(list: l, index: i))
                refs.append(builder.next(title: task.title))
            }
        }
        self.ids = ids
        self.offsets = offsets
        self.refs = RefIndex(refs)
    }

    public func list(_ id: TaskID) -> TaskList { lists[id.list] }
    public func task(_ id: TaskID) -> Task { lists[id.list].document.tasks[id.index] }
    public func notes(_ id: TaskID) -> String { lists[id.list].document.notes[id.index] }

    /// The position of a task in `ids` and `refs`.
    public func position(of id: TaskID) -> Int { offsets[id.list] + id.index }

    /// The short ref a row shows.
    public func ref(_ id: TaskID) -> String { refs.shortRef(at: position(of: id)) }

    /// The enclosing task of a subtask.
    public func parent(of id: TaskID) -> TaskID? {
        task(id).parent.map { TaskID(list: id.list, index: $0) }
    }

    /// The direct subtasks of a task, in document order.
    public func children(of id: TaskID) -> [TaskID] {
        let tasks = lists[id.list].document.tasks
        var result: [TaskID] = []
        var j = id.index + 1
        while j < tasks.count, tasks[j].depth > tasks[id.index].depth {
            if tasks[j].parent == id.index { result.append(TaskID(list: id.list, index: j)) }
            j += 1
        }
        return result
    }

    // MARK: Naming things

    /// The task a user's REF names: a ref prefix, else an exact title, else a unique title substring.
    public func resolve(ref text: String) -> Resolution<TaskID> {
        let titles = ids.lazy.map { self.task($0).title }
        switch refs.resolve(text, titles: titles) {
        case .found(let i, _): return .found(ids[i])
        case .ambiguous(let candidates, _): return .ambiguous(candidates.map { ids[$0] })
        case .notFound: return .notFound
        }
    }

    /// The list a user names: its path relative to the folder (with or without `.md`), else its file
    /// name without `.md` or its display name, ignoring case, else a unique prefix of either.
    public func resolve(list text: String) -> Resolution<Int> {
        let query = text.lowercased()
        let pathQuery = query.hasSuffix(".md") ? query : query + ".md"
        if let exact = lists.firstIndex(where: { $0.file.path.lowercased() == pathQuery }) { return .found(exact) }
        let named = lists.indices.filter {
            lists[$0].file.baseName.lowercased() == query || lists[$0].name.lowercased() == query
        }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 { return .ambiguous(named) }
        let prefixed = lists.indices.filter {
            lists[$0].file.baseName.lowercased().hasPrefix(query) || lists[$0].name.lowercased().hasPrefix(query)
        }
        if prefixed.count == 1 { return .found(prefixed[0]) }
        if prefixed.count > 1 { return .ambiguous(prefixed) }
        return .notFound
    }
}

/// What a name resolved to.
public enum Resolution<Value: Equatable & Sendable>: Equatable, Sendable {
    case found(Value)
    case ambiguous([Value])
    case notFound
}

// MARK: - Loading

/// A folder's lists, read and parsed, and what could not be read.
public struct LoadResult: Sendable {
    public var library: Library
    /// Things that looked like lists but were skipped (see `FolderScan`).
    public var problems: [FolderProblem]
    /// List files that could not be read.
    public var readErrors: [(file: ListFile, error: FileSystemError)]
}

extension Folder {
    /// Reads and parses every list, on all cores. Never writes.
    public func load() -> LoadResult {
        let scan = scan()
        let files = scan.lists
        let slots = ResultSlots<Result<Document, FileSystemError>>(count: files.count)
        let fs = fileSystem
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            do {
                slots[i] = .success(Document(bytes: try fs.readFile(files[i].absolutePath)))
            } catch let error as FileSystemError {
                slots[i] = .failure(error)
            } catch {
                preconditionFailure("FileSystem threw \(error)")
            }
        }
        var lists: [TaskList] = []
        var readErrors: [(ListFile, FileSystemError)] = []
        for (i, file) in files.enumerated() {
            switch slots[i]! {
            case .success(let document): lists.append(TaskList(file: file, document: document))
            case .failure(let error): readErrors.append((file, error))
            }
        }
        return LoadResult(library: Library(lists: lists), problems: scan.problems, readErrors: readErrors)
    }
}

/// Fixed slots that concurrent workers fill, each worker its own index.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutablePointer<Value?>.allocate(capacity: max(count, 1))
        base.initialize(repeating: nil, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(i: Int) -> Value? {
        get { base[i] }
        set { base[i] = newValue }
    }
}
