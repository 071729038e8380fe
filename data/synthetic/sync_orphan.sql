-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- CUDA synchronization rows, one of which has a correlation id that matches no CUDA API call (nsys records
-- such rows now and then; tests/test_nsys_bad_rows.cpp). Schema 3.16.1 (nsys 2024.6); CREATE TABLE statements
-- are copied from real exports (sqlite3 .schema of shared/data/nsys/fuser_matmul_h100.sqlite). Times are ns
-- since the session start.
--
-- Expected, by hand: the synchronization with correlation id 2 lies in the cudaStreamSynchronize call with
-- that id and goes on its thread (one begin of type 63000009, value syncType 3 + 1 = 4); the one with
-- correlation id 99 has no call, so no thread: it is skipped, counted once (table
-- CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) in the sidecar's skipped_rows, in report.json's notes and in a
-- "gpueff: warning:" line. Nothing else is skipped.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    syncType                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    eventId                     INTEGER   NOT NULL                     -- Event ID for which the synchronization API is called.
);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    -- CUPTI synchronization type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES
    (0, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN', 'Unknown'),
    (1, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE', 'Event sync'),
    (2, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT', 'Stream wait sync'),
    (3, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE', 'Stream sync'),
    (4, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE', 'Context sync');

-- pid 7300; globalPid = (1 << 48) | (7300 << 24), main thread tid 7300.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'cudaStreamSynchronize_v3020'),
    (3, 'scale_kernel'),
    (4, 'synthetic_sync');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_sync_orphan.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000400000000000, '2023-11-14T22:20:00', '2023-11-14T22:20:00');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'sync-host');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 20000, 0, 20000);
INSERT INTO PROCESSES VALUES (281597450387456, 7300, 'synthetic_sync');
INSERT INTO ThreadNames VALUES (4, 20, 281597450394756);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1000, 1500, 0, 281597450394756, 1, 1, 0, NULL),
    (2000, 9000, 0, 281597450394756, 2, 2, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (1600, 8000, 0, 1, NULL, 7, 1, 281597450387456, 3, 3, NULL, 1, 0, 32, 512, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);
-- start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid, syncType, eventId
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES
    (2100, 8500, 0, 1, NULL, 7, 2, 281597450387456, 3, 0),
    (4000, 4100, 0, 1, NULL, 7, 99, 281597450387456, 3, 0);
COMMIT;
