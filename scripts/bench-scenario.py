#!/usr/bin/env python3
"""Writes the scheduler benchmark's device scenario (Benchmarks/SchedulerBenchmarks, deviceScenario) as YAML:
the same 50 apps and routine, for DAYS days (default 30), so `offstage simulate --json` can run it."""
import sys

def scenario(count: int, days: int) -> str:
    yaml = f"name: {count} apps for {days} days\nseed: 3\nduration: {days}d\ndevice: {{ screen: off }}\napps:\n"
    routine = "routine:\n  - { at: \"23:30\", jitter: 30m, do: plug }\n  - { at: \"07:05\", jitter: 15m, do: unplug }\n"
    for index in range(count):
        app = f"com.bench.app{index}"
        refresh = f"{app}.refresh"
        after = ["15m", "30m", "1h", "2h", "4h"][index % 5]
        yaml += (
            f"  - manifest:\n"
            f"      CFBundleIdentifier: {app}\n"
            f"      UIBackgroundModes: [fetch]\n"
            f"      BGTaskSchedulerPermittedIdentifiers: [{refresh}]\n"
            f"    behaviour:\n"
            f"      register: [{refresh}]\n"
            f"      onLaunch: [{{ submit: {{ refresh: {refresh}, after: {after} }} }}]\n"
            f"      tasks:\n"
            f"        {refresh}: {{ work: 1s..5s, then: [{{ submit: {{ refresh: {refresh}, after: {after} }} }}] }}\n"
        )
        for session in range(1 + index % 4):
            hour = 7 + (index * 5 + session * 4) % 16
            routine += f"  - {{ at: \"{hour}:{10 + index % 40}\", jitter: 20m, open: {app}, for: 3m }}\n"
    return yaml + routine

if __name__ == "__main__":
    days = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    sys.stdout.write(scenario(50, days))
