import TickCore

/// One problem `tick check` reports.
private struct Problem {
    var file: String
    /// Nil for a problem with the file as a whole (a dangling symbolic link).
    var line: Int?
    var column: Int?
    var message: String

    var text: String {
        guard let line else { return "\(file): \(message)" }
        return "\(file):\(line):\(column ?? 1): \(message)"
    }

    var json: JSON {
        .object([("file", .string(file)), ("line", line.map(JSON.int) ?? .null),
                 ("column", column.map(JSON.int) ?? .null), ("message", .string(message))])
    }
}

/// `tick check [FILE...]`: format problems, and a byte-for-byte round trip of every file.
@Sendable func runCheck(_ invocation: Invocation) throws -> ExitStatus {
    let folder = try invocation.folder()
    let fs = invocation.fileSystem
    var targets: [(display: String, path: String)] = []
    var problems: [Problem] = []
    var ioFailed = false

    let files = invocation.values(Commands.fileArgument)
    if files.isEmpty {
        let scan = folder.scan()
        targets = scan.lists.map { ($0.path, $0.absolutePath) }
        for problem in scan.problems {
            if case .unreadable(let path, let error) = problem {
                try Invocation.refuseUnreadableRoot(path, error, folder: folder)
                invocation.err.line("tick: cannot read '\(problem.path)': \(problem.reason)")
                ioFailed = true
            } else {
                problems.append(Problem(file: problem.path, message: problem.reason))
            }
        }
    } else {
        for file in files {
            targets.append(try locate(file, in: folder, invocation: invocation))
        }
    }

    var roundTripFailures = 0
    var filesWithProblems = Set<String>()
    /// Where each `id:` value was seen first: an id names one task of the folder (FORMAT.md 5.8).
    var firstID: [String: String] = [:]
    for problem in problems { filesWithProblems.insert(problem.file) }
    for target in targets {
        let bytes: [UInt8]
        do {
            bytes = try fs.readFile(target.path)
        } catch let error as FileSystemError {
            invocation.err.line("tick: cannot read '\(target.display)': \(error.reason)")
            ioFailed = true
            continue
        }
        let check = ListFileCheck(bytes, globalFilter: invocation.settings.globalFilter)
        if let offset = check.firstDifference {
            invocation.err.line("tick: bug: '\(target.display)' does not read back byte for byte "
                                + "(first difference at byte \(offset)); please report it")
            roundTripFailures += 1
        }
        for (line, column, message) in check.problems {
            problems.append(Problem(file: target.display, line: line, column: column, message: message))
            filesWithProblems.insert(target.display)
        }
        for (id, line, column) in check.ids {
            if let first = firstID[id] {
                problems.append(Problem(file: target.display, line: line, column: column,
                                        message: "duplicate id 'id:\(id)': \(first) has it too; an id names one task"))
                filesWithProblems.insert(target.display)
            } else {
                firstID[id] = "\(target.display):\(line)"
            }
        }
    }

    if invocation.global.json {
        invocation.out.jsonArray(problems) { $0.json }
    } else {
        for problem in problems { invocation.out.line(problem.text) }
        if !invocation.global.quiet {
            let lists = targets.count == 1 ? "1 list" : "\(targets.count) lists"
            if problems.isEmpty {
                invocation.out.line("Checked \(lists): no problems")
            } else {
                let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
                let files = filesWithProblems.count == 1 ? "1 file" : "\(filesWithProblems.count) files"
                invocation.out.line("Checked \(lists): \(count) in \(files)")
            }
        }
    }

    if roundTripFailures > 0 { return .internal }
    if ioFailed { return .io }
    return problems.isEmpty ? .success : .negative
}

/// A FILE argument: a path from the working folder, else from the task folder.
private func locate(_ file: String, in folder: Folder, invocation: Invocation) throws -> (display: String, path: String) {
    let fs = invocation.fileSystem
    var candidates = [Path.absolute(file, from: invocation.context.currentDirectory)]
    if !file.hasPrefix("/") { candidates.append(Path.absolute(file, from: folder.path)) }
    for path in candidates {
        switch try fs.status(path)?.kind {
        case nil: continue
        case .directory?: throw UsageError.invalidInput("'\(file)' is a folder, not a list file")
        default:
            let inside = Path.relative(path, to: folder.path)
            return (inside ?? file, path)
        }
    }
    throw UsageError.invalidInput("no such list file: '\(file)'")
}

