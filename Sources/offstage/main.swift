import OffstageCLI

OffstageCommand.runFromCommandLine()
