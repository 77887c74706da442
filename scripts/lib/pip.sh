# Sourced by the fetch scripts. pip_command prints the pip they use: $PIP when set, else the
# project's .venv/bin/pip, else `python3 -m pip`.
pip_command() {
    if [ -n "${PIP:-}" ]; then
        echo "$PIP"
    elif [ -x .venv/bin/pip ]; then
        echo .venv/bin/pip
    else
        echo "python3 -m pip"
    fi
}
