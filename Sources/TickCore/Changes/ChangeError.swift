import TickFormat

/// Why a change of tasks or lists was not made. Nothing is written when one is thrown.
public enum MutationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The task is no longer in its file: someone changed or removed it meanwhile.
    case taskGone(TaskKey)
    /// The list file is gone.
    case listGone(path: String)
    /// A moved task changed in its old list while tick moved it: the move was rolled back.
    case changedWhileMoving(title: String, from: String, to: String)
    /// A list name that cannot name a file in the folder.
    case badListName(String, reason: String)
    /// A list whose file name is taken, ignoring case.
    case listExists(name: String, path: String)
    /// `list rm` of a list with open tasks, without `--force`.
    case openTasks(list: String, count: Int)
    /// A value that cannot be written into a list file.
    case badValue(String)
    /// `add --section` names a section the list does not have.
    case noSuchSection(String, list: String)
    /// A list that is a symbolic link, which tick does not rename or delete.
    case symbolicLink(path: String, doing: String)
    /// The task folder does not exist yet, so it holds nothing to change.
    case noFolder(path: String)
    /// The format library refused the edit, to keep the file's structure (its message).
    case refused(String)

    /// An edit the format library refused: a bad value, or one that would break the file's structure.
    init(_ error: EditError) {
        switch error.reason {
        case .badValue: self = .badValue(error.description)
        case .noSuchTask, .noSuchSection, .structure: self = .refused(error.description)
        }
    }

    public var description: String {
        switch self {
        case .taskGone(let key):
            return "the task '\(key.title)' is no longer in \(key.path) (changed meanwhile?); nothing written"
        case .listGone(let path):
            return "the list \(path) is gone; nothing written"
        case .changedWhileMoving(let title, let from, let to):
            return "'\(title)' changed in \(from) while tick moved it to \(to); nothing written"
        case .badListName(let name, let reason):
            return "cannot name a list '\(name)': \(reason)"
        case .listExists(let name, let path):
            return "cannot create the list '\(name)': \(path) exists already"
        case .openTasks(let list, let count):
            return "the list '\(list)' has \(count) open task\(count == 1 ? "" : "s"); "
                + "use --force to delete it with \(count == 1 ? "it" : "them")"
        case .badValue(let message), .refused(let message):
            return message
        case .noSuchSection(let name, let list):
            return "no section '\(name)' in the list \(list)"
        case .symbolicLink(let path, let doing):
            return "\(path) is a symbolic link; \(doing) it by hand"
        case .noFolder(let path):
            return "the task folder \(path) does not exist yet"
        }
    }
}

