"""A PostgreSQL server and a RabbitMQ node of our own, for runs that stop and start them.

The fault-injection suite takes its dependencies down on purpose; doing that to a shared server
would break every other run on the machine (and the rest of CI). These instances live in one
directory, listen on free ports on 127.0.0.1, and are removed, processes included, on exit.

    with PrivatePostgres(root) as pg, PrivateRabbitMQ(root) as mq:
        pg.admin_url, mq.url          # give them to BenchEnvironment
        pg.stop(); pg.start()         # a restart (or an outage: wait in between)

``missing_tools()`` says what is not installed (the callers skip, or fail under CI).
"""

from __future__ import annotations

import glob
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

# Where Debian/Ubuntu packages put the server binaries (not on PATH); overridable.
POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin"
RABBITMQ_SERVER_CANDIDATES = ("/usr/lib/rabbitmq/bin/rabbitmq-server",)
STARTUP_LIMIT = 90.0


def listening_port() -> int:
    """A free port below the ephemeral range, for a server that will stop and start again.

    A port the kernel hands out (bind to 0) is in the ephemeral range: while the server is down,
    any outgoing connection may take it as its local port, and the server cannot listen again.
    """
    try:
        ephemeral_low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral_low = 32768
    for _ in range(200):
        port = random.randint(20000, ephemeral_low - 1)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        if not port_open(port):
            return port
    raise RuntimeError("no free port below the ephemeral range")


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def wait_for_port(port: int, limit: float, what: str) -> float:
    """Seconds until ``port`` accepts connections; RuntimeError past ``limit``."""
    started = time.monotonic()
    while not port_open(port):
        if time.monotonic() - started > limit:
            raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {limit:.0f} s")
        time.sleep(0.2)
    return time.monotonic() - started


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server bin folder with initdb (POSTGRES_BIN overrides)."""
    if os.environ.get("POSTGRES_BIN"):
        return Path(os.environ["POSTGRES_BIN"])
    found = [Path(folder) for folder in glob.glob(POSTGRES_BIN_GLOB) if (Path(folder) / "initdb").exists()]
    if found:
        return max(found, key=lambda folder: _version_key(folder.parent.name))
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def rabbitmq_server() -> Path | None:
    """The rabbitmq-server start script that runs the node in the foreground (RABBITMQ_SERVER overrides)."""
    for candidate in (os.environ.get("RABBITMQ_SERVER", ""), *RABBITMQ_SERVER_CANDIDATES):
        if candidate and Path(candidate).exists():
            return Path(candidate)
    found = shutil.which("rabbitmq-server")
    return Path(found) if found else None


def missing_tools() -> list[str]:
    """What this machine lacks to run the private instances (empty: everything is there)."""
    missing = []
    if postgres_bin() is None:
        missing.append("PostgreSQL server binaries (initdb, pg_ctl; set POSTGRES_BIN)")
    elif os.geteuid() == 0 and not _user_exists("postgres"):
        missing.append("a 'postgres' user to run PostgreSQL as (it refuses to run as root)")
    if rabbitmq_server() is None:
        missing.append("rabbitmq-server (set RABBITMQ_SERVER)")
    if shutil.which("epmd") is None:
        missing.append("epmd (Erlang)")
    return missing


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class PrivatePostgres:
    """A throw-away cluster (initdb) under ``root``/postgres, trust auth, user postgres; its log
    is copied to ``log_dir``/postgres.log at the end when given (it outlives the cluster)."""

    def __init__(self, root: Path, log_dir: Path | None = None, settings: dict[str, str] | None = None) -> None:
        self.settings = dict(settings or {})  # server settings (-c name=value), e.g. a preloaded library
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL server binaries not found (set POSTGRES_BIN)")
        self.dir = Path(root) / "postgres"
        self.data = self.dir / "data"
        self.log_dir = Path(log_dir) if log_dir else None
        self.port = listening_port()

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        # PostgreSQL refuses to run as root: as root, run its tools as the postgres user.
        if os.geteuid() == 0:
            command = ("runuser", "-u", "postgres", "--", *command)
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-1000:]}")

    def __enter__(self) -> PrivatePostgres:
        self.dir.mkdir(parents=True)
        if os.geteuid() == 0:
            # The postgres user must reach its folder (a mkdtemp parent is root-only).
            parent = self.dir.parent
            parent.chmod(parent.stat().st_mode | 0o711)
            shutil.chown(self.dir, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.start()
        return self

    def __exit__(self, *exc) -> bool:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "stop", "-m", "immediate", "-w")
        finally:
            if self.log_dir is not None and (self.dir / "log").exists():
                shutil.copy(self.dir / "log", self.log_dir / "postgres.log")
            shutil.rmtree(self.dir, ignore_errors=True)
        return False

    def start(self) -> float:
        """Start and wait until it accepts connections; returns the seconds it took."""
        started = time.monotonic()
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        options += "".join(f" -c {name}={value}" for name, value in self.settings.items())
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.dir / "log"),
            "start",
            "-w",
            "-t",
            "60",
        )
        wait_for_port(self.port, STARTUP_LIMIT, "PostgreSQL")
        return time.monotonic() - started

    def stop(self) -> None:
        """Fast shutdown: every session is closed, as in a database restart or failover."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "stop", "-m", "fast", "-w", "-t", "60")


class PrivateRabbitMQ:
    """A RabbitMQ node with its own name, ports, epmd, config and mnesia under ``root``/rabbitmq.

    The machine's /etc/rabbitmq files (fixed listener, node name) are bypassed with the node's own
    config and env files. A restart keeps the mnesia folder, so durable queues and persistent
    messages survive it, as on a real broker restart. Its logs go to ``log_dir``/rabbitmq when
    given (they outlive the node).
    """

    def __init__(self, root: Path, log_dir: Path | None = None) -> None:
        server = rabbitmq_server()
        if server is None:
            raise RuntimeError("rabbitmq-server not found (set RABBITMQ_SERVER)")
        self.server = server
        self.dir = Path(root) / "rabbitmq"
        self.logs = Path(log_dir) / "rabbitmq" if log_dir else self.dir / "log"
        self.port, self.dist_port, self.epmd_port = listening_port(), listening_port(), listening_port()
        self.node = f"fault{os.getpid()}@localhost"
        self._epmd: subprocess.Popen | None = None
        self._node: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}/%2F"

    def _environment(self) -> dict[str, str]:
        return {
            **os.environ,
            # Own epmd and cookie: the machine's node and its epmd are never touched.
            "HOME": str(self.dir),
            "ERL_EPMD_PORT": str(self.epmd_port),
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "RABBITMQ_MNESIA_BASE": str(self.dir / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.logs),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.dir / "enabled_plugins"),
            "RABBITMQ_PID_FILE": str(self.dir / "pid"),
            "RABBITMQ_CONFIG_FILE": str(self.dir / "rabbitmq.conf"),
            "RABBITMQ_CONF_ENV_FILE": str(self.dir / "env.conf"),
        }

    def __enter__(self) -> PrivateRabbitMQ:
        (self.dir / "mnesia").mkdir(parents=True)
        self.logs.mkdir(parents=True, exist_ok=True)
        (self.dir / "enabled_plugins").write_text("[].\n")
        (self.dir / "rabbitmq.conf").write_text(
            f"listeners.tcp.default = 127.0.0.1:{self.port}\nloopback_users = none\n"
        )
        (self.dir / "env.conf").write_text("")
        # Started by us in the foreground (not -daemon): it goes away with the run.
        self._epmd = subprocess.Popen(
            [shutil.which("epmd") or "epmd", "-port", str(self.epmd_port), "-address", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.epmd_port, 10, "epmd")
        try:
            self.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> bool:
        try:
            self.stop()
        finally:
            if self._epmd is not None:
                _end_group(self._epmd, signal.SIGTERM, 5)
                self._epmd = None
            shutil.rmtree(self.dir, ignore_errors=True)
        return False

    def start(self) -> float:
        """Start the node and wait until it accepts AMQP connections; returns the seconds it took."""
        started = time.monotonic()
        log = open(self.logs / "console.log", "a")  # noqa: SIM115 (the node writes to it while it runs)
        self._node = subprocess.Popen(
            [str(self.server)],
            cwd=self.dir,
            env=self._environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        try:
            wait_for_port(self.port, STARTUP_LIMIT, "RabbitMQ")
        except RuntimeError:
            if self._node.poll() is not None:
                raise RuntimeError(f"RabbitMQ did not start; see {self.logs}") from None
            raise
        return time.monotonic() - started

    def stop(self) -> None:
        """Graceful stop (SIGTERM: the start script stops the node, which flushes its queues)."""
        if self._node is None:
            return
        _end_group(self._node, signal.SIGTERM, 60)
        self._node = None


def _end_group(process: subprocess.Popen, first: signal.Signals, grace: float) -> None:
    """Signal ``process``'s group (it was started in its own session), then SIGKILL what remains."""
    try:
        os.killpg(process.pid, first)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # children the leader left behind (erl_child_setup)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)
