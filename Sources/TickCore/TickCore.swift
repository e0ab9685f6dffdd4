@_exported import TickFormat
