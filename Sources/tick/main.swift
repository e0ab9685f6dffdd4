import TickFormat
let d = Document("- [ ] !! Pears \\\n  more\n  - [ ] Child2\n")
for (i,t) in d.tasks.enumerated() { print(i, t.title, t.depth, t.parent ?? -1, d.notes[i], d.lineRange(of: i)) }
