/// A scenario that could not be loaded: the file, the line and the field at fault, and what was expected.
/// Bad input is reported, never trapped on: hosts print `description` as it is.
public struct ScenarioError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file (or the name given to `ScenarioLoader.parse`) the problem is in.
    public var source: String
    /// The 1-based line of the problem, when it has one.
    public var line: Int?
    /// The path of the field at fault, like `apps[1].behaviour.tasks.com.x.refresh.work`.
    public var field: String?
    /// What is wrong, and what was expected instead.
    public var message: String

    /// Makes an error; `line` is 1-based.
    /// Every loader error goes through here, so all of them print the same way.
    public init(source: String, line: Int? = nil, field: String? = nil, message: String) {
        self.source = source
        self.line = line
        self.field = field
        self.message = message
    }

    /// `demo.yaml:14: field 'apps[0].memory': expected a size like 120MB, got "lots"`.
    /// The parts that are unknown are left out.
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "field '\(field)': " }
        return text + message
    }
}
