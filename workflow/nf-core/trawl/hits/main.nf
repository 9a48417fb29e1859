process TRAWL_HITS {
    tag "$meta.id"
    label 'process_medium'

    // trawl is not packaged in bioconda yet: the container is the repository's Dockerfile,
    // built and tagged locally (docker build -t trawl:0.1.0 .).
    conda "${moduleDir}/environment.yml"
    container "trawl:0.1.0"

    input:
    tuple val(meta), path(reads)
    path patterns

    output:
    tuple val(meta), path("*.hits.{tsv,parquet}"), emit: hits
    tuple val(meta), path("*_mqc.json")          , emit: json
    path "versions.yml"                           , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def args = task.ext.args ?: '-k 2'
    def prefix = task.ext.prefix ?: "${meta.id}"
    def format = task.ext.format ?: 'tsv'
    """
    trawl hits \\
        $args \\
        --threads $task.cpus \\
        -f $patterns \\
        --json ${prefix}_mqc.json \\
        -o ${prefix}.hits.${format} \\
        $reads

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        trawl: \$(trawl --version)
    END_VERSIONS
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.hits.tsv
    echo '{}' > ${prefix}_mqc.json

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        trawl: \$(trawl --version)
    END_VERSIONS
    """
}
