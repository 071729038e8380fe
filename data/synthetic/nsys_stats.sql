-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- What the nsys_stats summaries of `gpueff analyze` must handle and no real export in data/nsys has
-- (tests/test_nsys_stats.cpp): NVTX start/end ranges (eventType 60), one of them ending on another thread; a
-- range never ended (end NULL: nsys counts it up to the last NVTX timestamp, here the mark at 31000); a named
-- domain whose ranges come in two categories (one nvtx_sum row); one name in both styles (two rows); a range
-- without text; a driver call inside a runtime call; API names with 4- and 5-digit version suffixes and a real
-- "_v2"; a memcpy of copy kind 0 ("[CUDA memcpy Unknown]"). Schema 3.16.1 (nsys 2024.6); CREATE TABLE
-- statements copied from real exports (sqlite3 .schema of data/nsys/*.sqlite). Times are ns since the session
-- start. Expected (nsys' definitions): see the comments by each row.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes transferred (B).
    copyKind                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEMCPY_OPER(id)
    deprecatedSrcId             INTEGER,                               -- Deprecated, use srcDeviceId instead.
    srcKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    dstKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    srcDeviceId                 INTEGER,                               -- Source device ID.
    srcContextId                INTEGER,                               -- Source context ID.
    dstDeviceId                 INTEGER,                               -- Destination device ID.
    dstContextId                INTEGER,                               -- Destination context ID.
    migrationCause              INTEGER,                               -- REFERENCES ENUM_CUDA_UNIF_MEM_MIGRATION(id)
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    virtualAddress              INTEGER                                -- Virtual base address of the page/s being transferred.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    value                       INTEGER   NOT NULL,                    -- Value assigned to memory.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes set (B).
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    memKind                     INTEGER                                -- REFERENCES ENUM_CUDA_MEM_KIND(id)
);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (
    -- CUDA memcpy operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE ENUM_CUDA_MEM_KIND (
    -- CUDA memory kind labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
-- Rows as in fuser_matmul_h100.sqlite.
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES
    (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'),
    (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
    (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
    (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
    (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer');
INSERT INTO ENUM_CUDA_MEM_KIND VALUES
    (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
    (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
    (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');

INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'cuLaunchKernel'),
    (3, 'cudaMemcpyAsync_v3020'),
    (4, 'cudaMemsetAsync_v3020'),
    (5, 'cudaStreamIsCapturing_v10000'),
    (6, 'cuGetProcAddress_v2'),
    (7, 'synthetic_gemm_kernel'),
    (8, 'worker'),
    (20, 'step'),
    (21, 'inner');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_nsys_stats.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000500000000000, '2023-11-14T22:21:40', '2023-11-14T22:21:40');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-stats');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 100000, 0, 100000);
-- pid 4200: globalPid = (1 << 48) | (4200 << 24) = 281545441017856; threads 4200 (main) and 4201 (worker).
INSERT INTO PROCESSES VALUES (281545441017856, 4200, 'synthetic_stats');
INSERT INTO ThreadNames VALUES (8, 20, 281545441022057);

-- NVTX. Domain 5 is "MyLib"; every other row is in the default domain.
INSERT INTO NVTX_EVENTS (start, end, eventType, textId, text, globalTid, endGlobalTid, domainId, category) VALUES
    (0, NULL, 75, NULL, 'MyLib', 281545441022056, NULL, 5, NULL),
    -- :step PushPop, 2 instances 8000 + 9000; :inner PushPop 1000 + 1500 nested in them
    (1000, 9000, 59, 20, NULL, 281545441022056, NULL, 0, NULL),
    (2000, 3000, 59, 21, NULL, 281545441022056, NULL, 0, NULL),
    (10000, 19000, 59, 20, NULL, 281545441022056, NULL, 0, NULL),
    (11000, 12500, 59, 21, NULL, 281545441022056, NULL, 0, NULL),
    -- MyLib:load PushPop in categories 3 and 0: one row, 500 + 400
    (3500, 4000, 59, NULL, 'load', 281545441022056, NULL, 5, 3),
    (12600, 13000, 59, NULL, 'load', 281545441022056, NULL, 5, NULL),
    -- a range without text: gpueff names it "unnamed range" (nsys prints ":"), 100
    (13100, 13200, 59, NULL, '', 281545441022056, NULL, 0, NULL),
    -- MyLib:load StartEnd, 500: a row of its own
    (20000, 20500, 60, NULL, 'load', 281545441022056, NULL, 5, NULL),
    -- :step StartEnd on the worker, 1000; :async StartEnd ending on the main thread, 8500
    (20000, 21000, 60, 20, NULL, 281545441022057, 281545441022057, 0, NULL),
    (21500, 30000, 60, NULL, 'async', 281545441022057, 281545441022056, 0, NULL),
    -- :open PushPop never ends: 31000 - 25000 = 6000 (the mark below is the last NVTX timestamp)
    (25000, NULL, 59, NULL, 'open', 281545441022056, NULL, 0, NULL),
    (31000, NULL, 34, NULL, 'done', 281545441022056, NULL, 0, NULL);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (100, 150, 0, 281545441022056, 10, 5, 0, NULL),     -- cudaStreamIsCapturing_v10000: 50 + 60
    (200, 260, 0, 281545441022056, 11, 5, 0, NULL),
    (300, 320, 1, 281545441022057, 12, 6, 0, NULL),     -- cuGetProcAddress_v2 (worker): 20
    (1500, 1900, 0, 281545441022056, 1, 1, 0, NULL),    -- cudaLaunchKernel: 400 + 200
    (1600, 1800, 1, 281545441022056, 1, 2, 0, NULL),    -- cuLaunchKernel inside it, same correlation id: 200
    (5000, 5600, 0, 281545441022056, 2, 3, 0, NULL),    -- cudaMemcpyAsync: 600 + 300 + 100
    (8000, 8200, 0, 281545441022056, 6, 1, 0, NULL),
    (14000, 14300, 0, 281545441022056, 3, 3, 0, NULL),
    (16000, 16100, 0, 281545441022056, 4, 4, 0, NULL),  -- cudaMemsetAsync: 100
    (17000, 17100, 0, 281545441022056, 5, 3, 0, NULL);

INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (2000, 5000, 0, 1, NULL, 7, 1, 281545441017856, 7, 7, NULL, 1, 0, 32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0),
    (8500, 9500, 0, 1, NULL, 7, 6, 281545441017856, 7, 7, NULL, 1, 0, 32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 6, 0, NULL, 0);

-- start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, bytes, copyKind,
-- deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId, dstContextId, migrationCause,
-- graphNodeId, virtualAddress
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
    -- [CUDA memcpy Host-to-Device] 1000 ns, 1 MB: 1000 GB/s (bytes per ns)
    (6000, 7000, 0, 1, NULL, 7, 2, 281545441017856, 1000000, 1, NULL, 1, 2, NULL, NULL, 0, 1, NULL, NULL, NULL),
    -- [CUDA memcpy Device-to-Host] 500 ns, 2 MB: 4000 GB/s
    (15000, 15500, 0, 1, NULL, 7, 3, 281545441017856, 2000000, 2, NULL, 2, 1, 0, 1, NULL, NULL, NULL, NULL, NULL),
    -- [CUDA memcpy Unknown] 200 ns, 100 B
    (17500, 17700, 0, 1, NULL, 7, 5, 281545441017856, 100, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, value, bytes, graphNodeId,
-- memKind: [CUDA memset] 100 ns, 4096 B
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES
    (16500, 16600, 0, 1, NULL, 7, 4, 281545441017856, 0, 4096, NULL, 2);
COMMIT;
