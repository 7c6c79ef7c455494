import DiffLabCLI
import DiffLabDev

// The maintainers' commands (mutate, coverage): not part of the runner users build.
DiffLabRunner.main(commands: DevCommands.commands, tool: "difflab-dev")
