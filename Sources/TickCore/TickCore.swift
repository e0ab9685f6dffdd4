import TickFormat

// The value types of the format library that TickCore's API hands to its callers. The command line
// names them through TickCore only: it never imports the format library, and never sees a document.

/// A calendar day.
public typealias Day = TickFormat.Day
/// A due date: a day, and optionally a time of day.
public typealias DueDate = TickFormat.DueDate
/// A task's priority: none, low, medium or high.
public typealias Priority = TickFormat.Priority
/// A format problem at a line and column of a list file.
public typealias Diagnostic = TickFormat.Diagnostic
/// The fields of a task to add.
public typealias NewTask = TickFormat.NewTask
/// The colours a list may take.
public typealias ListColor = TickFormat.ListColor
/// A repetition rule: the value of a `rec:` token.
public typealias RecurrenceRule = TickFormat.RecurrenceRule
