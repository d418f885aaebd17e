/// What the new user of an instance was running when a step recorded it: the intruder's side of a
/// report, the part that is cheap to read on its thread — the library work item (where it was scheduled
/// from, by which function) and the Swift task's name. No thread name, no stack.
struct ObservedWork: Sendable, Equatable {
    /// Where the library work item the new user ran was scheduled from.
    var scheduledAt: CodeLocation?
    /// The function that scheduled it.
    var function: String?
    /// The Swift task's name (`Task.name`), when the use ran in a named task.
    var taskName: String?

    /// Read on the calling thread, for a step made here; `nil` when there is nothing to say (no library
    /// work item with a recorded site or function, no task name).
    static var current: Self? {
        let item = ConfinementViolation.Intruder.currentWorkItem()
        return Self(
            scheduledAt: item?.scheduledAt, function: item?.function,
            taskName: ConfinementViolation.Intruder.currentTaskName
        ).nonEmpty
    }

    /// The same fields of a report's intruder (a declared owner's step at the `observe` level is a
    /// report's violation, whose intruder was read on the violating thread).
    ///
    /// - Parameter intruder: The violation's intruder side.
    init?(_ intruder: ConfinementViolation.Intruder?) {
        guard let intruder,
            let work = Self(scheduledAt: intruder.scheduledAt, function: intruder.function, taskName: intruder.taskName)
                .nonEmpty
        else { return nil }
        self = work
    }

    private init(scheduledAt: CodeLocation?, function: String?, taskName: String?) {
        self.scheduledAt = scheduledAt
        self.function = function
        self.taskName = taskName
    }

    private var nonEmpty: Self? {
        scheduledAt == nil && function == nil && taskName == nil ? nil : self
    }

    /// The step's optional fields: `work` (`{"scheduledAt"?: {"file", "line"}, "function"?}`) and
    /// `taskName`.
    var jsonFields: [(String, String)] {
        var work: [(String, String)] = []
        if let scheduledAt { work.append(("scheduledAt", ObservationFile.location(scheduledAt))) }
        if let function { work.append(("function", JSON.string(function))) }
        var fields: [(String, String)] = []
        if !work.isEmpty { fields.append(("work", JSON.object(work))) }
        if let taskName { fields.append(("taskName", JSON.string(taskName))) }
        return fields
    }
}
