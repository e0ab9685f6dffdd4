import TickCore

/// The views `tick pick --view` can choose from.
let pickViews: [SmartView] = [.today, .flagged, .scheduled]

/// `tick pick`: one open task to do now; `--done` completes it, `--clear` dismisses it.
@Sendable func runPick(_ invocation: Invocation) throws -> ExitStatus {
    let done = invocation.flag(Commands.pickDoneOption), clear = invocation.flag(Commands.clearOption)
    if done || clear {
        if done, clear { throw UsageError.invalidInput("--done and --clear do not go together") }
        let choosing: [any OptionKey] = [Commands.listOption, Commands.pickViewOption, Commands.seedOption,
                                         Commands.uniformOption]
        if let option = choosing.first(where: invocation.given) {
            let acting = done ? Commands.pickDoneOption : Commands.clearOption
            throw UsageError.invalidInput("--\(acting.option.name) acts on the current pick; --\(option.option.name) "
                                          + "only applies when picking")
        }
        return done ? try completePick(invocation) : try clearPick(invocation)
    }

    let seed = try invocation.value(Commands.seedOption).map(parseSeed)
    let loaded = try invocation.load()
    let library = loaded.library
    let now = invocation.now
    let list = try invocation.value(Commands.listOption).map { try invocation.resolveList($0, in: library) }
    let view = invocation.value(Commands.pickViewOption).flatMap(SmartView.init(rawValue:))
    let memory = PickMemory(root: loaded.folder.path, fileSystem: invocation.fileSystem)
    let current = memory.load().flatMap { $0.find(in: library) }

    var generator = SeededGenerator(seed: seed ?? UInt64.random(in: .min ... .max))
    let candidates = library.pickCandidates(PickScope(view: view, list: list), now: now)
    let weighting: PickWeighting = invocation.flag(Commands.uniformOption) ? .uniform : .urgency(invocation.settings.pickWeights)
    let chosen = library.pick(from: candidates, excluding: current, weighting: weighting, now: now, using: &generator)
    if let chosen {
        do {
            try memory.save(PickedTask(chosen, in: library))
        } catch {
            invocation.warn("cannot remember the pick: \(error)")
        }
    }

    let out = invocation.out
    if invocation.global.json {
        out.json(chosen.map { TaskRows.json($0, in: library) } ?? .null)
        return loaded.status
    }
    guard let chosen else {
        out.line(allClearMessage(view: view, list: list.map { library.lists[$0].name }))
        return loaded.status
    }
    let terminal = invocation.terminal
    var rows = TaskRows(library: library, now: now, terminal: terminal, showList: true, rows: [chosen])
    out.line(Style.bold.apply("Do now", enabled: terminal.color))
    rows.write(chosen, to: out)
    if chosen == current { out.line("  (the only task to pick from)") }
    out.line()
    out.line("When it is done: tick pick --done. Another one: tick pick.")
    return loaded.status
}

/// `--seed N`: a whole number that fits in 64 bits.
private func parseSeed(_ text: String) throws -> UInt64 {
    guard let seed = UInt64(text) else {
        throw UsageError.invalidValue(option: "--seed", value: text,
                                      reason: "expected a whole number from 0 to \(UInt64.max)")
    }
    return seed
}

/// `All clear: nothing due today in Groceries.`
private func allClearMessage(view: SmartView?, list: String?) -> String {
    var text: String
    switch view {
    case .today?: text = "nothing due today"
    case .flagged?: text = "no flagged tasks"
    case .scheduled?: text = "no scheduled tasks"
    default: text = "no open tasks"
    }
    if let list { text += " in " + list }
    return "All clear: \(text)."
}

// MARK: - The current pick

/// `tick pick --clear`: forgets the current pick.
private func clearPick(_ invocation: Invocation) throws -> ExitStatus {
    let folder = try invocation.folder()
    let hadOne = try PickMemory(root: folder.path, fileSystem: invocation.fileSystem).clear()
    if invocation.global.json {
        invocation.out.json(.null)
    } else if !invocation.global.quiet {
        invocation.out.line(hadOne ? "Dismissed the current pick." : "There is no current pick.")
    }
    return .success
}

/// `tick pick --done`: completes the current pick, re-found by its ref's identity, through the same
/// change as `tick done`, and prints the same line.
private func completePick(_ invocation: Invocation) throws -> ExitStatus {
    let folder = try invocation.folder()
    let memory = PickMemory(root: folder.path, fileSystem: invocation.fileSystem)
    guard let picked = memory.load() else {
        throw CommandFailure(.negative, "there is no current pick; run 'tick pick' first")
    }
    let gone = CommandFailure(.negative, "the picked task '\(picked.title)' is no longer in \(picked.path); "
                              + "run 'tick pick' for another")
    let session = try invocation.openForWriting(create: false)
    // Only a task of a list of the folder: never write anywhere else.
    guard let id = picked.find(in: session.library) else {
        try memory.clear()
        throw gone
    }
    let edit = invocation.completion
    let result: (library: Library, tasks: [TaskFolder.Edited])
    do {
        result = try session.folder.edit([id], [edit])
    } catch MutationError.taskGone {
        try memory.clear()
        throw gone
    }
    try memory.clear()
    guard let task = result.tasks.first, let done = task.after else { throw gone }
    if invocation.global.json {
        // The task object, as `tick pick --json` prints it.
        invocation.out.json(TaskRows.json(done, in: result.library))
    } else {
        invocation.say(changeLine(edit, task, done, in: result.library, now: invocation.now))
    }
    return session.loaded.status
}
