import OffstageCLI

await OffstageCommand.runFromCommandLine()
