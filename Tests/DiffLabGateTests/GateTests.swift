import DiffLabGate
import Testing
