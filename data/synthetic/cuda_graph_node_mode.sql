-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- CUDA graphs traced with --cuda-graph-trace=node: two cudaGraphLaunch calls whose kernels are
-- kernel rows carrying graphNodeId and graphId. Schema 3.25.0 (nsys 2026.2), whose kernel table has graphId.
-- CREATE TABLE statements are copied from real exports (sqlite3 .schema of shared/data/nsys/*.sqlite) or,
-- for tables none of them has, from NVIDIA's documented export schema. Times are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT,                                  -- Start of the capture in local time of target.
    systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
    shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
    mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
    launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)
    cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
    registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
    gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
    gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
    gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
    blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
    blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
    blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
    staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
    dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
    localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
    localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
    gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
    sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    sharedMemoryLimitConfig     INTEGER,                               -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
    qmdBulkReleaseDone          INTEGER,                               -- QMD bulk release done timestamp from CWD events.
    qmdPreexitDone              INTEGER,                               -- QMD pre-exit done timestamp from CWD events.
    qmdLastCtaDone              INTEGER,                               -- QMD last CTA done timestamp from CWD events.
    graphId                     INTEGER,                               -- Kernel graph ID.
    clusterX                    INTEGER,                               -- Cluster X dimension.
    clusterY                    INTEGER,                               -- Cluster Y dimension.
    clusterZ                    INTEGER,                               -- Cluster Z dimension.
    clusterSchedulingPolicy     INTEGER,                               -- Cluster scheduling policy.
    maxPotentialClusterSize     INTEGER,                               -- Maximum potential cluster size.
    maxActiveClusters           INTEGER,                               -- Maximum active clusters.
    sharedMemoryRequestedPercentage   INTEGER,                         -- Shared memory requested percentage.
    tensorSizeMinusOneElements   TEXT      NOT NULL                    -- TMA descriptor tensor size minus one elements array.
);


-- One process (pid 6161); globalPid = (1 << 48) | (6161 << 24), main thread tid 6161.
-- Profiled as with --cuda-graph-trace=node: no GRAPH_TRACE table; the kernels of graph 3 (nodes 1001 and
-- 1002) are kernel rows with graphNodeId and graphId set (graphId exists in the kernel table since schema 3.24).
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'cudaGraphLaunch_v10000'),
    (3, 'init_buffers_kernel'),
    (4, 'sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'),
    (5, 'void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, float *)'),
    (6, 'vectorized_elementwise_kernel'),
    (7, 'synthetic_graph_nodes');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2026.2.1.210'),
    ('EXPORT_SCHEMA_VERSION', '3.25.0'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '25'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '0'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_cuda_graph_node_mode.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES
    (1700000150000000000, '2023-11-14T22:15:50', '2023-11-14T22:15:50', 5000000000);
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-graph-node');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 10000, 0, 10000);
INSERT INTO PROCESSES VALUES (281578341138432, 6161, 'synthetic_graph_nodes');
INSERT INTO ThreadNames VALUES (7, 20, 281578341144593);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1000, 1400, 0, 281578341144593, 19, 1, 0, NULL),
    (2000, 2300, 0, 281578341144593, 20, 2, 0, NULL),
    (6000, 6300, 0, 281578341144593, 21, 2, 0, NULL);

-- One eager kernel (no graph), then two launches of graph 3, each running node 1001 (GEMM) then node 1002.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig, graphId, clusterX, clusterY, clusterZ,
    tensorSizeMinusOneElements) VALUES
    (1500, 2500, 0, 1, NULL, 7, 19, 281578341138432, 3, 3, NULL, 1, 0, 32, 256, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0, NULL, 0, 0, 0, '[]'),
    (2400, 4000, 0, 1, NULL, 13, 20, 281578341138432, 4, 4, NULL, 1, 0, 168, 132, 1, 1, 384, 1, 1, 0, 213248, 0, 0, 2, 233472, 1001, 0, 3, 1, 1, 1, '[]'),
    (4050, 4800, 0, 1, NULL, 13, 20, 281578341138432, 5, 6, NULL, 1, 0, 24, 2048, 1, 1, 128, 1, 1, 0, 0, 0, 0, 3, 0, 1002, 0, 3, 0, 0, 0, '[]'),
    (6400, 8000, 0, 1, NULL, 13, 21, 281578341138432, 4, 4, NULL, 1, 0, 168, 132, 1, 1, 384, 1, 1, 0, 213248, 0, 0, 4, 233472, 1001, 0, 3, 1, 1, 1, '[]'),
    (8050, 8800, 0, 1, NULL, 13, 21, 281578341138432, 5, 6, NULL, 1, 0, 24, 2048, 1, 1, 128, 1, 1, 0, 0, 0, 0, 5, 0, 1002, 0, 3, 0, 0, 0, '[]');
COMMIT;
