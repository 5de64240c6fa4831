import ArgumentParser
import OffstageCore

/// `ctl home`: the user goes to the home screen; the app on screen goes to the background.
struct HomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "home", abstract: "Go to the home screen.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { try daemon.send(SystemEvent.home) }
}

/// `ctl lock`: the user locks the device (screen off).
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lock", abstract: "Lock the device.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { try daemon.send(SystemEvent.lock) }
}

/// `ctl unlock`: the user unlocks; the app that was on screen comes back.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlock", abstract: "Unlock the device.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { try daemon.send(SystemEvent.unlock) }
}

/// `ctl switcher`: the user opens the app switcher; the app on screen resigns active.
struct SwitcherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "switcher", abstract: "Open the app switcher.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { try daemon.send(SystemEvent.openSwitcher) }
}
