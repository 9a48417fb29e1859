# trawl on Debian 12, built with the same setup script as the README quick start.
FROM debian:12
COPY . /src
WORKDIR /src
RUN bash scripts/setup.sh release && install -m 755 build/release/trawl /usr/local/bin/trawl \
    && rm -rf build /var/lib/apt/lists/*
WORKDIR /data
ENTRYPOINT ["trawl"]
