// Edits of a list as a whole: its name (the first level-1 heading) and its front matter, and the
// text of a new list. Like task edits, each keeps every other byte and is checked by reading the
// result back.

extension Document {
    /// The text of a new list: front matter when `fields` are given, then `# name`.
    public static func newList(name: String, fields: [(key: String, value: String)]) throws(EditError) -> Document {
        var text = ""
        if !fields.isEmpty {
            text += "---\n"
            for (key, value) in fields { text += "\(key): \(FrontMatter.quoted(value))\n" }
            text += "---\n"
        }
        text += "# \(name)\n"
        let document = Document(text)
        guard document.heading == name else {
            throw EditError(reason: .badValue, line: document.headingLine ?? 1,
                            message: "it does not read back as the same heading (Markdown markup?)")
        }
        for (key, value) in fields where document.frontMatter?[key] != value {
            throw EditError(reason: .badValue, line: 1, message: "cannot write \(key) '\(value)' so that it reads back the same")
        }
        return document
    }

    /// The list renamed: its level-1 heading's text replaced, or, without one, a heading `# name`
    /// added at the top (after front matter, or after a `---` block that is not front matter).
    public func renamingList(to name: String) throws(EditError) -> EditResult {
        let splice: Splice
        if let n = headingLine {
            splice = Splice(range: textStart(n)..<lines.contentEnd(n), bytes: renamedHeadingLine(n, to: name))
        } else {
            var at = bomLength
            if let frontMatter {
                at = lines.end(frontMatter.closingLine)
            } else if unrecognizedFrontMatter != nil, let closing = closingFenceLine() {
                at = lines.end(closing)
            }
            let ending = lineEnding.bytes
            var text = Array("# \(name)".utf8) + ending + (at < bytes.count ? ending : [])
            // After a last line without a line ending, one comes first.
            if at > bomLength, at == bytes.count, lines.count > 0, lines.ending(lines.count, in: bytes) == nil { text = ending + text }
            splice = Splice(range: at..<at, bytes: text)
        }
        let result = reading(splicing([splice]))
        guard result.heading == name, result.readsLike(self) else {
            throw EditError(reason: .badValue, line: headingLine ?? 1,
                            message: "it does not read back as the list's heading (Markdown markup?)")
        }
        return EditResult(document: result, task: nil, fixes: [], replaced: splice.range,
                          replacement: splice.range.lowerBound..<(splice.range.lowerBound + splice.bytes.count))
    }

    /// Heading line `n` with its text replaced by `name`: an ATX heading keeps its indentation,
    /// marker, spacing and closing sequence; a setext heading its indentation (the underline stays).
    private func renamedHeadingLine(_ n: Int, to name: String) -> [UInt8] {
        let line = Array(bytes[textStart(n)..<lines.contentEnd(n)])
        let indent = line.prefix { $0 == 0x20 }.count
        let hashes = line.dropFirst(indent).prefix { $0 == UInt8(ascii: "#") }.count
        guard hashes == 1 else { return Array(line.prefix(indent)) + Array(name.utf8) }
        let spacing = line.dropFirst(indent + 1).prefix(while: isSpaceOrTab)
        var replacement = Array(line.prefix(indent + 1)) + (spacing.isEmpty ? [0x20] : Array(spacing)) + Array(name.utf8)
        var end = line.count
        while end > 0, isSpaceOrTab(line[end - 1]) { end -= 1 }
        var closing = end
        while closing > indent + 1, line[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing < end, closing > indent + 1, isSpaceOrTab(line[closing - 1]) {
            var start = closing
            while start > indent + 1, isSpaceOrTab(line[start - 1]) { start -= 1 }
            replacement += line[start...]
        } else {
            replacement += line[end...]
        }
        return replacement
    }

    /// The line of the `---` that closes a block opened on line 1, if any.
    private func closingFenceLine() -> Int? {
        stride(from: 2, through: lines.count, by: 1).first { n in
            var end = lines.contentEnd(n)
            while end > lines.start(n), isSpaceOrTab(bytes[end - 1]) { end -= 1 }
            return bytes[lines.start(n)..<end].elementsEqual("---".utf8)
        }
    }

    /// The list with front matter keys set (a nil value removes the key): a key's line changed in
    /// place, a missing key added before the closing `---`, the block added at the top when the
    /// file has none, and removed when its last key goes. A file that starts with a `---` block
    /// that is not front matter is refused: tick would write a second block.
    public func settingFrontMatter(_ fields: [(key: String, value: String?)]) throws(EditError) -> EditResult {
        if let unrecognized = unrecognizedFrontMatter {
            throw EditError(reason: .badValue, line: unrecognized.line,
                            message: "the file starts with '---' but is not front matter tick can write (\(unrecognized.reason)); edit it by hand")
        }
        var document = self
        for (key, value) in fields { document = document.setting(key, value) }
        for (key, value) in fields where document.frontMatter?[key] != value {
            throw EditError(reason: .badValue, line: 1, message: "cannot write \(key) '\(value ?? "")' so that it reads back the same")
        }
        guard document.readsLike(self), document.heading == heading else {
            throw EditError(reason: .badValue, line: 1,
                            message: "setting \(fields.map(\.key).joined(separator: " and ")) would change the list's tasks or name")
        }
        let new = document.bytes
        let prefix = zip(bytes, new).prefix { $0 == $1 }.count
        let suffix = zip(bytes[prefix...].reversed(), new[prefix...].reversed()).prefix { $0 == $1 }.count
        return EditResult(document: document, task: nil, fixes: [], replaced: prefix..<(bytes.count - suffix),
                          replacement: prefix..<(new.count - suffix))
    }

    /// One key set or removed, re-parsed.
    private func setting(_ key: String, _ value: String?) -> Document {
        let ending = lineEnding.bytes
        let line = value.map { Array("\(key): \(FrontMatter.quoted($0))".utf8) }
        guard let front = frontMatter else {
            guard let line else { return self }
            let block = Array("---".utf8) + ending + line + ending + Array("---".utf8) + ending
            return reading(splicing([Splice(range: bomLength..<bomLength, bytes: block)]))
        }
        let keyLine = (2..<front.closingLine).first { bytes[lines.start($0)..<lines.contentEnd($0)].starts(with: (key + ":").utf8) }
        let splice: Splice
        switch (keyLine, line) {
        case (let n?, let line?):
            splice = Splice(range: lines.start(n)..<lines.contentEnd(n), bytes: line)
        case (_?, nil) where front.fields.count == 1:
            // The last key: the block goes, or what remains would read as Markdown.
            splice = Splice(range: bomLength..<lines.end(front.closingLine), bytes: [])
        case (let n?, nil):
            splice = Splice(range: lines.start(n)..<lines.end(n), bytes: [])
        case (nil, let line?):
            splice = Splice(range: lines.start(front.closingLine)..<lines.start(front.closingLine), bytes: line + ending)
        case (nil, nil):
            return self
        }
        return reading(splicing([splice]))
    }
}
