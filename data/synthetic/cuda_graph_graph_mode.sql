-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- CUDA graphs traced with --cuda-graph-trace=graph (the default): three cudaGraphLaunch calls,
-- three CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows, no kernel rows for the graphs' kernels. Schema 3.16.1 (nsys 2024.6).
-- CREATE TABLE statements are copied from real exports (sqlite3 .schema of shared/data/nsys/*.sqlite) or,
-- for tables none of them has, from NVIDIA's documented export schema. Times are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    graphId                     INTEGER   NOT NULL,                    -- REFERENCES CUDA_GRAPH_EVENTS(graphId)
    graphExecId                 INTEGER   NOT NULL                     -- REFERENCES CUDA_GRAPH_EVENTS(graphExecId)
);


-- One process (pid 5151); globalPid = (1 << 48) | (5151 << 24), main thread tid 5151.
-- Profiled as with the default --cuda-graph-trace=graph: each graph launch is one GRAPH_TRACE row and the
-- kernels inside the graphs are NOT in CUPTI_ACTIVITY_KIND_KERNEL (only the one eager kernel is).
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'cudaGraphInstantiate_v12000'),
    (3, 'cudaGraphLaunch_v10000'),
    (4, 'cudaStreamSynchronize_v3020'),
    (5, 'init_buffers_kernel'),
    (6, 'synthetic_graph');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_cuda_graph_graph_mode.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000100000000000, '2023-11-14T22:15:00', '2023-11-14T22:15:00');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-graph-node');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 10000, 0, 10000);
INSERT INTO PROCESSES VALUES (281561396150272, 5151, 'synthetic_graph');
INSERT INTO ThreadNames VALUES (6, 20, 281561396155423);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1000, 1400, 0, 281561396155423, 10, 1, 0, NULL),
    (2000, 2600, 0, 281561396155423, 11, 2, 0, NULL),
    (3000, 3300, 0, 281561396155423, 12, 3, 0, NULL),
    (3400, 3700, 0, 281561396155423, 13, 3, 0, NULL),
    (3800, 4100, 0, 281561396155423, 14, 3, 0, NULL),
    (4200, 9000, 0, 281561396155423, 15, 4, 0, NULL);

INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (1500, 2500, 0, 1, NULL, 7, 10, 281561396150272, 5, 5, NULL, 1, 0, 32, 256, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);

-- Three launches: graph 1 (exec 2) twice on stream 13, graph 5 (exec 6) once on stream 14.
-- start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, graphId, graphExecId
INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES
    (3350, 5350, 0, 1, NULL, 13, 12, 281561396150272, 1, 2),
    (5400, 7400, 0, 1, NULL, 13, 13, 281561396150272, 1, 2),
    (4150, 8800, 0, 1, NULL, 14, 14, 281561396150272, 5, 6);
COMMIT;
