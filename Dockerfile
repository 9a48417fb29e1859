# trawl on Debian 12, slim: built with the same setup script as the README quick start and
# packed as a .deb (cpack), which the runtime stage installs on debian:12-slim with only the
# shared libraries its Depends line names (no compiler, headers or build tools).
FROM debian:12 AS build
COPY . /src
WORKDIR /src
RUN bash scripts/setup.sh release trawl man_page \
    && cd build/release && cpack -G DEB -B /deb > /dev/null

FROM debian:12-slim
COPY --from=build /deb/trawl_*.deb /tmp/
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/trawl_*.deb \
    && rm -rf /tmp/trawl_*.deb /var/lib/apt/lists/*
WORKDIR /data
ENTRYPOINT ["trawl"]
