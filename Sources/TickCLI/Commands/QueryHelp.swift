// `tick help query`: the query language, as README.md's "Queries" section describes it.
enum QueryHelp {
    static let text = """
        tick help query: the query language of tick find, --where, and saved views

        A query is terms side by side, all of which must match. Give it as one argument
        (tick find '#work is:overdue') or as the words after -- (tick find -- -#work milk),
        so that a -term is never read as an option.

        Terms
          milk            a word: part of the title, notes or tags, ignoring case and
                          accents (cafe finds Café), as tick search matches
          "call mum"      a phrase: the same, spaces included
          #work           a tag, ignoring case and accents; #work also finds #work/urgent
          #flag           a flagged task, as is:flagged (#flag flags a task, FORMAT.md 5.4)
          -TERM           any term negated: -milk, -#work, -is:done, -"call mum"
          list:NAME       tasks of the lists NAME names: a list whose name or file name is
                          NAME (ignoring case and accents) or whose path it is, else those
                          whose name or file name starts with it; list:"Work Stuff"
          in:SECTION      tasks under a section heading named SECTION (ignoring case and
                          accents)
          is:open  is:done  is:flagged  is:recurring (a rec: rule)
          is:overdue      open, past its due date (or time), and not starting after today
          is:today        what tick today shows: due or scheduled today or earlier, and not
                          starting after today (due:today is today's due date only)
          is:subtask      a task under another task
          is:parent       a task with subtasks
          has:due  has:notes  has:tags  has:priority, and no:due, no:notes, no:tags,
          no:priority for their opposites
          pri:high        priority: none, low, medium (med), high, or 0 to 3, after an
                          optional <, <=, >, >= or =: pri:>=medium, pri:>1
          !  !!  !!!      priority low, medium, high exactly
          due:DATES       the due date (see Dates); a due date with a time counts for its day
          done:DATES      the done: date, with the same forms
          scheduled:DATES the scheduled date (⏳, [scheduled:: DATE]), with the same forms
          start:DATES     the start date (🛫, [start:: DATE]), with the same forms

        Dates
          due:today, due:+3d, due:fri, due:2026-12-03: one day; any date word of tick due
            without a time (+3d is the day three days ahead, as everywhere in tick)
          due:this-week, due:next-week, due:last-week: weeks start on Monday, or on the
            day the week-start setting names (monday or sunday)
          due:this-month, due:next-month, due:last-month, due:2026-12 (a month),
            due:2026-W49 (an ISO week, Monday to Sunday), due:2026 (a year)
          due:A..B        from A through B, both included, each a day or a named range above
                          (its first day for A, its last for B); either end may be left
                          open: due:..today, due:today..+7d, due:2026-12..
          due:<A  due:<=A  due:>A  due:>=A   before, through, after or from A
          due:none, due:any   no due date, or any
          A task without a due date matches only due:none: due:<today leaves it out, and
          NOT due:<today (or -due:<today) keeps it.

        Logic
          a b             a and b (terms side by side)
          a OR b          either
          NOT a           not a (the same as -a)
          ( )             group
          NOT binds tighter than side by side, which binds tighter than OR:
          a OR b c is a OR (b c), and NOT a b is (NOT a) b. OR and NOT are operators only
          in capitals and unquoted: tea or coffee is three words, "OR" one word.
          A word with a colon is a key (list:, in:, is:, has:, no:, pri:, due:, done:,
          scheduled:, start:);
          another key is an error: quote the word to look for it as text ("re:meeting").

        A query that says nothing about completion (is:open, is:done, done:) finds open
        tasks only; --all adds completed ones. On a view (tick today --where '#work') a
        query narrows what the view shows. A query that cannot be read exits 2 and names
        the column: bad query at column 1: this parenthesis is never closed.
        tick find --explain QUERY prints the tree tick read, every date resolved.

        Views are queries: tick today shows what tick find is:today finds, tomorrow
        due:tomorrow, upcoming N due:today..+(N-1)d, scheduled has:due, flagged
        is:flagged, all is:open, completed is:done (with --all, find --all the same).
        tick status counts is:overdue, is:today -is:overdue, is:flagged and is:open.

        Sorting and grouping
          --sort KEYS     comma-separated keys: due (none last), pri, list, title, file
                          (list, then line), done (the done: date, none last); a leading -
                          reverses one: --sort due,-pri,title. priority (the ls word) is -pri.
          --group GROUP   list, section, due (by day), tag (the first tag), pri or none.
          A matched subtask is shown under its parent; a parent shown only for that is
          dimmed. --flat shows every task on its own.

        Saved views
          tick view save NAME QUERY [--sort KEYS] [--group GROUP], then tick view NAME.
          They are kept in .tick/config as view.NAME = QUERY (the rest of the line, #
          included), view.NAME.sort and view.NAME.group, and shown on the home screen.

        Changing many tasks
          tick done|reopen|flag|unflag|rm --where QUERY, tick mv --where QUERY LIST,
          tick due --where QUERY DATE, tick priority --where QUERY LEVEL: every task the
          query finds, in one change (one tick undo). More than 10 need --yes, or a yes
          typed on a terminal; otherwise nothing changes (exit 2).

        """
}
