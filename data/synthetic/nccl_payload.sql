-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- One process (PID 100, globalPid 100<<24) with one thread (TID 101) that calls ncclAllReduce (an NVTX range in
-- the "NCCL" domain with a JSON payload) which launches an NCCL kernel (correlation id 7), and a plain GEMM kernel
-- (correlation id 8) launched outside any NCCL range. Expected: the NCCL kernel carries message size 4096,
-- reduction "sum", and communicator 77; the GEMM kernel carries no NCCL field.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, systemClockNs INTEGER);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT, name TEXT, nameEnum INTEGER, value TEXT);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
  blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
  dynamicSharedMemory INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, graphNodeId INTEGER, graphId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
  int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);

INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2024.6.1'), ('EXPORT_SCHEMA_VERSION', '3.16.1');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '', '', 0);
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (0, '', 'Hostname', 0, 'synthetic-node');
INSERT INTO PROCESSES VALUES (1677721600, 100, 'train.py');
INSERT INTO StringIds VALUES (1, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)'),
  (2, 'ampere_sgemm_128x64_tn'), (3, 'cudaLaunchKernel_v7000'), (4, 'ncclAllReduce');
-- globalTid = (100 << 24) | 101 = 1677721701
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES (0, 0, 75, 'NCCL', 1677721701, 5);
INSERT INTO NVTX_EVENTS (start, end, eventType, textId, globalTid, domainId, jsonText) VALUES
  (1000, 5000, 59, 4, 1677721701, 5,
   '{"NCCL communicator ID": 77, "Message size [bytes]": 4096, "Reduction operation": "sum"}');
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (2000, 3000, 1, 1677721701, 7, 3, 0, NULL),
  (6000, 6500, 1, 1677721701, 8, 3, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (4000, 9000, 0, 1, 13, 7, 1677721600, 1, 1, 32, 8, 1, 1, 256, 1, 1, 0, 0, 0, NULL, NULL),
  (9500, 12000, 0, 1, 7, 8, 1677721600, 2, 2, 64, 128, 1, 1, 256, 1, 1, 1024, 0, 0, NULL, NULL);
